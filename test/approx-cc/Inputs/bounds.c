// @approx:decision_tree {
//   transform_type: loop_perforate
//   thresholds: [30]
//   thresholds_lower: [0]
//   thresholds_upper: [20]
//   decisions: [0, 2]
// }
int f(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
