// @approx:decision_tree {
//   transform_type: loop_perforate
//   treshold: [3]
// }
int f(int n) { return n; }
