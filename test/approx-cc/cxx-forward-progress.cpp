// What C++ says of a function reaches LLVM through the import (issue 43,
// jmeint's exact gap): `mustprogress` (forward progress) and `nounwind`
// stay on the raised functions. Without `mustprogress`, LLVM could not
// delete the call of a state function whose result only a knob reads: in
// an exact build the knob is gone, yet the state's loop stayed in main
// (inlined), since it might not end; clang++ deletes it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-cc %s -O2 --approx-exact --emit=llvm -o - | FileCheck %s
// CHECK: define {{.*}}i32 @_Z8classifyPKd({{.*}}) #[[CLASSIFY:[0-9]+]]
// CHECK: attributes #[[CLASSIFY]] = { mustprogress nounwind "target-cpu"="x86-64" {{.*}}}
// RUN: approx-cc %s -O2 --approx-exact -o %t/exact
// RUN: %t/exact | FileCheck %s --check-prefix=OUT
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=main %t/exact | FileCheck %s --check-prefix=ASM --implicit-check-not=comisd
// ASM: <main>:
// RUN: approx-cc %s -O2 --approx-config=%S/Inputs/forward-progress.json -o %t/approx
// RUN: %t/approx | FileCheck %s --check-prefix=APPROX
// OUT: total 30
// APPROX: total 0
#include <cstdio>

// The state: how many of a row's first values are large (a loop LLVM
// cannot prove ends: only C++'s forward progress lets it drop an unused
// call).
int classify(const double *row) {
  int i = 0;
  while (row[i] > 0.5)
    i++;
  return i;
}

int skip(const double *, int) { return 0; }

// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   thresholds: [2]
//   thresholds_lower: [0]
//   thresholds_upper: [4]
//   decisions: [0, 0]
//   decision_values: [0, 1]
// }
int test(const double *row, int state) { return 10; }

int approx_test_1(const double *row, int state) { return skip(row, state); }

int main() {
  double rows[3][4] = {{0, 1, 0, 1}, {1, 1, 1, 1}, {0, 0, 0, 0}};
  int total = 0;
  for (auto &row : rows)
    total += test(row, classify(row));
  std::printf("total %d\n", total);
  return 0;
}
