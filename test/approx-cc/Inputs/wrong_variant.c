float approx_f_1(float x, int s) { return x; }
// @approx:func_substitute knob_val=1
double f(double x, int s) { return x * x; }
