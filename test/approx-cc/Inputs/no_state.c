// @approx:loop_perforate state_function=load thresholds=[3] decisions=[0, 2]
int f(int *a, int n) { return n; }
