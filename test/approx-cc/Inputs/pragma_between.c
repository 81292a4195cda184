int sum(int n) {
  int s = 0;
// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [5]
//   thresholds_lower: [0]
//   thresholds_upper: [10]
//   decisions: [0, 2]
//   decision_values: [0, 2]
// }
#pragma clang loop unroll(disable)
#line 40
  for (int i = 0; i < n; i++) s += i;
  return s;
}
int main(void) { return sum(3) != 3; }
