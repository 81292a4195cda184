// Annotations in the program's own headers are read like the main file's
// (system headers are not); errors point into the header; the knob works.
// RUN: approx-cc %s -I%S/Inputs/include -emit=annotated | FileCheck %s
// RUN: approx-tune --space %s -I%S/Inputs/include --list | FileCheck %s --check-prefix=SPACE
// RUN: approx-cc %s -I%S/Inputs/include --approx-exact -o %t.exact
// RUN: %t.exact | FileCheck %s --check-prefix=EXACT
// RUN: approx-cc %s -I%S/Inputs/include --approx-runtime-table -o %t
// RUN: %t | FileCheck %s --check-prefix=ANNOTATED
// RUN: echo '{"header_sum_decision_1": 4}' > %t.json
// RUN: env APPROX_CONFIG=%t.json %t | FileCheck %s --check-prefix=PERFORATED
// RUN: not approx-cc %s -I%S/Inputs/include -DBAD -emit=annotated 2>&1 | FileCheck %s --check-prefix=BAD

#include <stdio.h>
#include "knobbed.h"
#ifdef BAD
#include "bad_knob.h"
#endif

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = 1;
  /* state 60 >= threshold 50: the second decision (2 as annotated) */
  printf("sum %ld\n", header_sum(a, 100, 60));
  return 0;
}

// CHECK: approx.util.annotation.decision_tree <{decision_values = array<i32: 0, 2, 4>, decisions = array<i32: 0, 2>, func_name = "header_sum"
// SPACE: header_sum_threshold_0
// SPACE: 1 knobs, 3 parameters
// EXACT: sum 100
// ANNOTATED: sum 50
// PERFORATED: sum 25
// BAD: bad_knob.h:2:4: error: {{.*}}decision 1 (7) is not one of decision_values
