// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [5]
//   thresholds_lower: [0]
//   thresholds_upper: [10]
//   decisions: [0, 2]
//   decision_values: [0, 2]
// }
int run(int n) {
  static void *labels[] = {&&a, &&b};
  int s = 0;
  goto *labels[n & 1];
a: s += 1;
b: for (int i = 0; i < n; i++) s += i;
  return s;
}
int main(void) { return run(3) != 4; }
