// @approx:loop_perforate thresholds=[3 4] decisions=[0, 2]
int f(int n) { return n; }
