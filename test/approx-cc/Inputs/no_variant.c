double approx_f_1(double x) { return x; }
// @approx:func_substitute thresholds=[3] decisions=[0, 2] state_indices=[1]
double f(double x, int s) { return x * x; }
