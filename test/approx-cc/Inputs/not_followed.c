int x;
// @approx:loop_perforate thresholds=[3] decisions=[0, 2]
int y = 3;
