// RUN: approx-opt %s --approx-raise-llvm --approx-lift-scf | FileCheck %s --check-prefix=LIFT
// RUN: approx-opt %s --approx-raise-llvm --approx-lift-scf --approx-uplift-while --canonicalize | FileCheck %s --check-prefix=FOR

// for (i = 0; i < n; i++) s += i;  as clang emits it at -O0 + mem2reg
llvm.func @counted(%n: i32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^header(%c0, %c0 : i32, i32)
^header(%s: i32, %i: i32):
  %lt = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %lt, ^body, ^exit
^body:
  %s2 = llvm.add %s, %i : i32
  %i2 = llvm.add %i, %c1 : i32
  llvm.br ^header(%s2, %i2 : i32, i32)
^exit:
  llvm.return %s : i32
}
// LIFT-LABEL: func.func @counted(
// LIFT:         scf.while
// LIFT-NEXT:      %[[C:.*]] = arith.cmpi slt
// LIFT-NEXT:      scf.condition(%[[C]])
// LIFT:         } do {
// FOR-LABEL: func.func @counted(
// FOR-SAME:    %[[N:.*]]: i32)
// FOR:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32)  : i32
// FOR-NOT:     scf.while

// The bound is re-loaded from memory every iteration: stays scf.while.
llvm.func @reloaded(%p: !llvm.ptr) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^header(%c0 : i32)
^header(%i: i32):
  %n = llvm.load %p : !llvm.ptr -> i32
  %lt = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %lt, ^body, ^exit
^body:
  %i2 = llvm.add %i, %c1 : i32
  llvm.br ^header(%i2 : i32)
^exit:
  llvm.return %i : i32
}
// FOR-LABEL: func.func @reloaded(
// FOR:         scf.while
// FOR-NOT:     scf.for
