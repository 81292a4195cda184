// The exact fast path of runtime-table builds: `row`, a knob function
// called in run's loop, gets an exact copy, and run's call takes it while
// the table holds row's decisions at 0. The table build's exact
// configuration prints what the exact build prints; an approximate one
// prints what the build with that configuration baked in prints, within
// 1 % (L2) of exact. After clang -O2, run reads the table once, before
// its loop, and branches on the decisions being 0 in it.
// RUN: approx-cc %s --approx-exact -o %t.exact
// RUN: approx-cc %s --approx-runtime-table -o %t.table
// RUN: %t.exact > %t.exact.out
// RUN: echo '{"row_decision_0": 0, "row_decision_1": 0}' > %t.zero.json
// RUN: env APPROX_CONFIG=%t.zero.json %t.table > %t.table-exact.out
// RUN: diff %t.exact.out %t.table-exact.out
// RUN: echo '{"row_threshold_0": 40, "row_decision_0": 0, "row_decision_1": 2}' > %t.half.json
// RUN: approx-cc %s --approx-config=%t.half.json -o %t.baked
// RUN: %t.baked > %t.baked.out
// RUN: env APPROX_CONFIG=%t.half.json %t.table > %t.table-half.out
// RUN: diff %t.baked.out %t.table-half.out
// RUN: not diff -q %t.exact.out %t.table-half.out
// RUN: approx-qos l2 %t.exact.out %t.table-half.out | awk '{ exit !($1 >= 0.99 && $1 < 1) }'
// RUN: approx-cc %s --approx-runtime-table -emit=llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=COPY < %t.ll
// RUN: %cc -O2 -S -emit-llvm %t.ll -o - | FileCheck %s --check-prefix=IR
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
  int c = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    c++;
  }
  return s / c;
}

void run(double *out, const double *x, const int *len, int m) {
  for (int r = 0; r < m; r++)
    out[r] = row(x + r * 100, len[r], len[r]);
}

int main(void) {
  static double x[200 * 100], out[200];
  static int len[200];
  for (int r = 0; r < 200; r++) {
    len[r] = 1 + (r * 37) % 100;
    for (int i = 0; i < 100; i++)
      x[r * 100 + i] = 1 + 0.01 * r + 0.001 * i;
  }
  run(out, x, len, 200);
  for (int r = 0; r < 200; r++)
    printf("%.9f\n", out[r]);
  return 0;
}

// COPY: define internal double @__approx_exact_row(
// COPY-NOT: __approx_rt_cells
// COPY: ret double

// Before the loop: the two decisions (the test) and the threshold (the
// table version's); in the loop, a branch on the test, no read.
// IR-LABEL: define {{.*}}void @run(
// IR:         load atomic i32, ptr @__approx_rt_cells unordered
// IR-NEXT:    load atomic i32, ptr {{.*}}@__approx_rt_cells{{.*}} unordered
// IR-NEXT:    %[[ANY:.*]] = or i32
// IR-NEXT:    %[[EXACT:.*]] = icmp eq i32 %[[ANY]], 0
// IR-NEXT:    load atomic i32, ptr {{.*}}@__approx_rt_cells{{.*}} unordered
// IR-NOT:     @__approx_rt_cells
// IR:         br i1 %[[EXACT]],
// IR-NOT:     @__approx_rt_cells
// IR:         ret void
