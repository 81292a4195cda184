// Errors are reported with locations, exit non-zero, and leave an existing
// output file untouched.
// RUN: echo keep > %t.out
// RUN: not approx-compile %s --emit=llvm -o %t.out 2>&1 | FileCheck %s --check-prefix=ANNOT
// RUN: FileCheck %s --check-prefix=KEPT < %t.out
// RUN: not approx-compile %s -c -o %t.out 2>&1 | FileCheck %s --check-prefix=ANNOT
// RUN: FileCheck %s --check-prefix=KEPT < %t.out
// RUN: not approx-compile %S/Inputs/twice_main.c -o %t.out 2>&1 | FileCheck %s --check-prefix=NOTMLIR
// RUN: not approx-compile %s -c -shared -o %t.out 2>&1 | FileCheck %s --check-prefix=CSHARED
// RUN: not approx-compile %s --emit=asm -o %t.out 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not approx-compile %s --approx-exact --approx-runtime-table -o %t.out 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: not approx-compile %t.missing.mlir -o %t.out 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not approx-compile %S/approx-compile.mlir --approx-config=%t.nope.json -c -o %t.out 2>&1 | FileCheck %s --check-prefix=CONFIG
// RUN: FileCheck %s --check-prefix=KEPT < %t.out

func.func @f(%x: i32) -> i32 { return %x : i32 }
approx.util.annotation.static_transform <{func_name = "nope",
    transform_type = "loop_perforate", knob_val = 2 : i32}>

// ANNOT: approx-compile-errors.mlir:17:1: error: 'approx.util.annotation.static_transform' op annotated function 'nope' is not defined
// KEPT: keep
// NOTMLIR: error: the first input must be an .mlir file, got '{{.*}}twice_main.c'
// CSHARED: error: -c and -shared exclude each other
// EMIT: error: --emit must be 'mlir' or 'llvm', got 'asm'
// EXACT: error: --approx-exact excludes --approx-config and --approx-runtime-table
// MISSING: error: cannot read '{{.*}}missing.mlir': No such file or directory
// CONFIG: nope.json:1:1: error: cannot read configuration: No such file or directory
