// One knob of a two-module program (runtime-table.c is the other).
int state_a(int n) { return n; }
// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [0]
//   state_function: state_a
//   thresholds: [5]
//   thresholds_lower: [0]
//   thresholds_upper: [10]
//   decisions: [0, 2]
//   decision_values: [0, 1, 2, 3]
// }
int count_a(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}
