// Several inputs, -c, -I, -D, objects and the exit value of a C loop's
// induction variable (uplifted to scf.for) compared with clang.
// RUN: approx-cc -c %S/Inputs/scaled_sum.c -I%S/Inputs/include -DFACTOR=2 -o %t.sum.o
// RUN: approx-cc %s %t.sum.o -I%S/Inputs/include -o %t
// RUN: %t | FileCheck %s
// RUN: approx-cc %s %S/Inputs/scaled_sum.c -I%S/Inputs/include -DFACTOR=2 -o %t.both
// RUN: %t.both | FileCheck %s
// RUN: %cc %s %S/Inputs/scaled_sum.c -I%S/Inputs/include -DFACTOR=2 -o %t.ref
// RUN: %t.ref | FileCheck %s --check-prefix=REF

#include <stdio.h>
#include "scale.h"

int last_index(int n) {
  int i;
  for (i = 0; i < n; i += 3)
    ;
  return i;
}

int main(void) {
  int a[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  printf("exact %ld approx %ld\n", scaled_sum(a, 10, 0), scaled_sum(a, 10, 50));
  printf("last %d %d %d %d\n", last_index(10), last_index(9), last_index(0),
         last_index(-5));
  return 0;
}

// CHECK: exact 330 approx 150
// CHECK: last 12 9 0 0
// REF: exact 330 approx 330
// REF: last 12 9 0 0
