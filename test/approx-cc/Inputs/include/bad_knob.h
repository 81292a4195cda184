/* An annotation in a header with an error: located in the header. */
// @approx:decision_tree {
//   transform_type: loop_perforate
//   thresholds: [50]
//   decisions: [0, 7]
//   decision_values: [0, 2]
// }
long bad_sum(const int *a, int n, int state) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
