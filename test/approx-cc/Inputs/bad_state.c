int state(double d) { return (int)d; }
// @approx:loop_perforate state_function=state state_indices=[0] thresholds=[3] decisions=[0, 2]
int f(int n) { return n; }
