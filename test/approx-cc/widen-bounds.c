// A file written for the seed prototype, which did not check annotation
// values against their own bounds: a threshold of 2000 with bounds [1, 40],
// a decision and a knob_val missing from decision_values. Rejected by
// default, with the located error; accepted with --approx-widen-bounds, with
// a located warning per value and the bounds widened so that the tuning space
// contains the file's own configuration.
// RUN: not approx-cc %s -O2 -o %t 2>&1 | FileCheck %s --check-prefix=REJECT
// REJECT: widen-bounds.c:[[@LINE+25]]:4: error: 'approx.util.annotation.decision_tree' op threshold 0 (2000) is outside its bounds [1, 40]
//
// RUN: approx-cc %s -O2 --approx-widen-bounds -o %t 2> %t.warnings
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning: < %t.warnings
// WARN: widen-bounds.c:[[@LINE+21]]:4: warning: threshold 0 (2000) is outside its bounds [1, 40]; accepted, bounds widened to [1, 2000] (--approx-widen-bounds)
// WARN: widen-bounds.c:[[@LINE+20]]:4: warning: decision 1 (2) is not one of decision_values; accepted, added to decision_values (--approx-widen-bounds)
// WARN: widen-bounds.c:[[@LINE+36]]:4: warning: knob_val (3) is not one of decision_values; accepted, added to decision_values (--approx-widen-bounds)
//
// The program runs with the file's own values (execution check: the exact
// sums are 4950, 7998000 and 435).
// RUN: %t | FileCheck %s --check-prefix=APPROX
// RUN: approx-cc %s -O2 --approx-widen-bounds --approx-exact -o %t.exact 2> /dev/null
// RUN: %t.exact | FileCheck %s --check-prefix=EXACT
// RUN: approx-cc %s --approx-widen-bounds -emit=annotated 2> /dev/null | FileCheck %s --check-prefix=IR
// IR: approx.util.annotation.decision_tree <{decision_values = array<i32: 0, 1, 2>, decisions = array<i32: 1, 2>, func_name = "sum_perforated"{{.*}} thresholds = array<i32: 2000>, thresholds_lowers = array<i32: 1>, thresholds_uppers = array<i32: 2000>
// IR: approx.util.annotation.static_transform <{decision_values = array<i32: 0, 1, 2, 3>, func_name = "sum_static", knob_val = 3 : i32
//
// The tuner's space holds the widened ranges.
// RUN: approx-tune --space %s --approx-widen-bounds --list 2> /dev/null | FileCheck %s --check-prefix=SPACE
// SPACE-DAG: sum_perforated_threshold_0 {{.*}}[1, 2000]
// SPACE-DAG: sum_perforated_decision_0 {{.*}}{0, 1, 2}
// SPACE-DAG: sum_static_knob_val {{.*}}{0, 1, 2, 3}

int approx_state_identity(int x) { return x; }

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [1]
//   state_function: approx_state_identity
//   thresholds: [2000]
//   thresholds_lower: [1]
//   thresholds_upper: [40]
//   decisions: [1, 2]
//   decision_values: [0, 1]
// }
double sum_perforated(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

// @approx:static_transform transform_type=loop_perforate knob_val=3 decision_values=[0,1,2]
double sum_static(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

#include <stdio.h>

int main(void) {
  static double x[4000];
  for (int i = 0; i < 4000; ++i)
    x[i] = i;
  // n = 100 < 2000: decision 1 (every iteration); n = 4000: decision 2
  // (every other iteration); the static knob runs every third iteration.
  printf("%.0f %.0f %.0f\n", sum_perforated(x, 100), sum_perforated(x, 4000),
         sum_static(x, 30));
  return 0;
}
// APPROX: 4950 3998000 135
// EXACT: 4950 7998000 435
