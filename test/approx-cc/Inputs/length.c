int f(int *a, int n) {
  int s = 0;
  // @approx:loop_perforate thresholds=[3, 5] decisions=[0, 2]
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
