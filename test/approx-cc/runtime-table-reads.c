// Runtime-table reads are loads the optimiser may move: the module's
// constructor registers every parameter before the program runs, and a read
// is one unordered load from the module's own cells with an alias tag of its
// own, so clang -O2 hoists it out of a loop that writes only the program's
// typed memory. Here the per-row decision tree of `row`, inlined into
// `run`'s loop, reads its three parameters once, before the loop (the exact
// build has no reads at all).
// RUN: approx-cc %s --approx-runtime-table -emit=llvm -o %t.ll
// RUN: %cc -O2 -S -emit-llvm %t.ll -o - | FileCheck %s --check-prefix=HOIST
// RUN: approx-cc %s --approx-runtime-table -o %t.table
// RUN: %t.table | FileCheck %s --check-prefix=EXACT
// RUN: echo '{"row_threshold_0": 0, "row_decision_1": 3}' > %t.every3.json
// RUN: env APPROX_CONFIG=%t.every3.json %t.table | FileCheck %s --check-prefix=EVERY3
#include <stdio.h>

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [8]
//   thresholds_lower: [0]
//   thresholds_upper: [100]
//   decisions: [0, 0]
//   decision_values: [0, 2, 3]
// }
double row(const double *x, int n, int len) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

void run(double *out, const double *x, const int *len, int m, int n) {
  for (int r = 0; r < m; r++)
    out[r] = row(x + r * n, n, len[r]);
}

int main(void) {
  double x[4 * 9], out[4];
  int len[4] = {1, 5, 9, 20};
  for (int i = 0; i < 4 * 9; i++)
    x[i] = 1;
  run(out, x, len, 4, 9);
  printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
  return 0;
}

// HOIST-LABEL: define {{.*}}void @run(
// HOIST-COUNT-3: load atomic i32, ptr {{.*}}@__approx_rt_cells{{.*}} unordered
// HOIST:         phi i64 [ 0, %.lr.ph ]
// HOIST-NOT:     @__approx_rt_cells
// HOIST:         ret void

// The exact configuration runs the loop as written (the versioned copy of a
// perforation for a run-time factor of 1); every third element otherwise.
// EXACT: 9 9 9 9
// EVERY3: 3 3 3 3
