// A runtime-table program of two modules compiled apart: each module keeps
// its own parameter table, so each knob reads its own values (both modules
// used to share slot numbers: count_b read count_a's decision) and setting
// one knob leaves the other alone; an APPROX_CONFIG name that is no knob of
// the program is reported.
// RUN: approx-cc %s %S/Inputs/module_a.c -o %t.baked
// RUN: %t.baked | FileCheck %s --check-prefix=DEFAULT
// RUN: approx-cc -c %S/Inputs/module_a.c --approx-runtime-table -o %t.a.o
// RUN: approx-cc %s %t.a.o --approx-runtime-table -o %t.table
// RUN: %t.table | FileCheck %s --check-prefix=DEFAULT
// RUN: echo '{"count_b_decision_1": 0}' > %t.b.json
// RUN: env APPROX_CONFIG=%t.b.json %t.table | FileCheck %s --check-prefix=B-EXACT
// RUN: echo '{"count_a_decision_1": 0, "count_c_decision_1": 2}' > %t.typo.json
// RUN: env APPROX_CONFIG=%t.typo.json %t.table 2>%t.err | FileCheck %s --check-prefix=A-EXACT
// RUN: FileCheck %s --check-prefix=TYPO < %t.err
#include <stdio.h>

int count_a(int n);
int state_b(int n) { return n; }
// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [0]
//   state_function: state_b
//   thresholds: [5]
//   thresholds_lower: [0]
//   thresholds_upper: [10]
//   decisions: [0, 3]
//   decision_values: [0, 1, 2, 3]
// }
int count_b(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}

int main(void) {
  printf("%d %d\n", count_a(100), count_b(100));
  return 0;
}

// DEFAULT: 50 34
// B-EXACT: 50 100
// A-EXACT: 100 34
// TYPO: approx runtime: warning: APPROX_CONFIG ({{.*}}typo.json) sets 'count_c_decision_1', which is not a knob of this program (misspelled?)
