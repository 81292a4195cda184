// Annotations attach to the function or loop that follows them.
// RUN: approx-cc %s -emit=annotated | FileCheck %s
// RUN: approx-cc %s -emit=approx | FileCheck %s --check-prefix=APPROX

int get_state(int n) { return n / 10; }

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [1]
//   state_function: get_state
//   thresholds: [5, 10]
//   thresholds_lower: [0, 6]
//   thresholds_upper: [5, 20]
//   decisions: [0, 2, 3]
//   decision_values: [0, 1, 2, 3]
// }
long whole(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

// Two loop knobs in one function (knob names default to the loop's line).
double two_loops(const double *x, int n, int state) {
  double s = 0, t = 0;
  // @approx:loop_perforate thresholds=[3] decisions=[0, 2]
  for (int i = 0; i < n; i++)
    s += x[i];
  /* a comment between the annotation and the loop is fine */
  // @approx:static_transform knob_name=second transform_type=loop_perforate knob_val=4
  // (and so is another line of comment)
  while (n > 0) {
    t += x[--n];
  }
  return s + t;
}

// CHECK-DAG: approx.util.annotation.decision_tree <{decision_values = array<i32: 0, 1, 2, 3>, decisions = array<i32: 0, 2, 3>, func_name = "whole", state_function = "get_state", state_indices = array<i64: 1>, thresholds = array<i32: 5, 10>, thresholds_lowers = array<i32: 0, 6>, thresholds_uppers = array<i32: 5, 20>, transform_type = "loop_perforate"}>
// CHECK-DAG: approx.util.annotation.decision_tree <{decisions = array<i32: 0, 2>, func_name = "two_loops", knob_name = "line28", loop_path = array<i64: 0>, state_function = "__approx_state_identity", state_indices = array<i64: -1>, thresholds = array<i32: 3>, transform_type = "loop_perforate"}>
// CHECK-DAG: approx.util.annotation.static_transform <{func_name = "two_loops", knob_name = "second", knob_val = 4 : i32, loop_path = array<i64: 1>, transform_type = "loop_perforate"}>

// APPROX-LABEL: func.func @whole(
// APPROX:         call @get_state
// APPROX:         scf.index_switch
// APPROX:         scf.for
// APPROX-LABEL: func.func @two_loops(
// APPROX:         scf.for
// APPROX:         scf.while
// APPROX-NOT:   approx.
