// @approx:loop_perforate thresholds=[9, 5] decisions=[0, 2, 3]
int f(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
