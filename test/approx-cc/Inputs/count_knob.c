// A file with a loop knob (multi-file-config.test's).
int count(int n) {
  int s = 0;
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}
