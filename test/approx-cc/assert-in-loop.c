// Asserts in a hot loop without -DNDEBUG (issue 43, defect 5). The failure
// path ends in a call that never returns (__assert_fail); it was raised as a
// function return, which made the loop an scf.while with two exits: no knob
// could perforate it ("cannot find the induction variable"), and the exact
// build ran at 0.83x clang's speed. The path now branches past the call, the
// loop is an scf.for with an scf.if around the call, and the callee keeps
// LLVM's noreturn, so LLVM makes the path unreachable again.
// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-cc %s -O2 -emit=mlir | FileCheck %s --check-prefix=IR
// RUN: approx-cc %s -O2 -emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: %cc -O2 %s -o %t/ref && %t/ref > %t/ref.txt
// RUN: approx-cc %s -O2 -o %t/exact && %t/exact | diff - %t/ref.txt
// RUN: approx-cc %s -O2 --approx-runtime-table -o %t/table && %t/table | diff - %t/ref.txt
// RUN: echo '{"sum_squares_ss_knob_val": 2}' > %t/half.json
// RUN: env APPROX_CONFIG=%t/half.json %t/table | FileCheck %s --check-prefix=HALF
// A failing assert still stops the program with its message.
// RUN: not --crash %t/exact fail 2>&1 | FileCheck %s --check-prefix=FAIL
#include <assert.h>
#include <stdio.h>
#include <string.h>

// IR-LABEL: func.func @sum_squares
// IR: scf.for
// IR: scf.if
// IR: call @__assert_fail
// IR: scf.if
// IR: call @__assert_fail
// IR: func.func private @__assert_fail({{.*}}) attributes {passthrough = ["noreturn", "nounwind"], target_cpu
// LLVM: declare void @__assert_fail({{.*}}) #[[NR:[0-9]+]]
// LLVM: attributes #[[NR]] = { noreturn nounwind {{.*}}}
double sum_squares(const double *x, int n) {
  double s = 0;
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2] knob_name=ss
  for (int i = 0; i < n; i++) {
    assert(x[i] >= 0);
    assert(x[i] < 1e6 && x[i] == x[i]); // two ways to fail: two predecessors
    s += x[i] * x[i];
  }
  return s;
}

int main(int argc, char **argv) {
  double x[100];
  for (int i = 0; i < 100; i++)
    x[i] = i % 10;
  if (argc > 1 && strcmp(argv[1], "fail") == 0)
    x[57] = -1;
  printf("sum %g\n", sum_squares(x, 100));
  return 0;
}

// Every other element: the even ones, 0 2 4 6 8 ten times each.
// HALF: sum 1200
// FAIL: Assertion `x[i] >= 0' failed
