// approx-compile produces objects, shared libraries, executables and LLVM IR.
// RUN: approx-compile %s --emit=llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: approx-compile %s --emit=mlir -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVMDIALECT < %t.llvm.mlir
// RUN: approx-compile %s -c -o %t.o
// RUN: %cc %S/Inputs/twice_main.c %t.o -o %t.from-object
// RUN: %t.from-object | FileCheck %s --check-prefix=EXEC
// RUN: approx-compile %s -shared -o %t.so
// RUN: %cc %S/Inputs/twice_main.c %t.so -o %t.from-shared
// RUN: %t.from-shared | FileCheck %s --check-prefix=EXEC
// RUN: approx-compile %s %S/Inputs/twice_main.c -O0 -o %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=EXEC

func.func @twice(%x: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x) -> (i32) {
    %b = arith.addi %a, %x : i32
    scf.yield %b : i32
  }
  return %r : i32
}
approx.util.annotation.static_transform <{func_name = "twice",
    transform_type = "loop_perforate", knob_val = 2 : i32}>

// LLVM: define i32 @twice(i32
// LLVMDIALECT: llvm.func @twice(
// LLVMDIALECT-NOT: approx.
// EXEC: twice(5) = 10
