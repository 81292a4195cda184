// @approx:static_transform transform_type=loop_perforate knob_val=2
int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}
