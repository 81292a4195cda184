// RUN: approx-opt %s --approx-raise-llvm | FileCheck %s

// CHECK-LABEL: func.func @arith(
// CHECK-SAME:    %[[A:.*]]: i32, %[[B:.*]]: i32, %[[P:.*]]: !llvm.ptr) -> f64
// CHECK:         %[[C:.*]] = arith.constant 3 : i32
// CHECK:         %[[S:.*]] = arith.addi %[[A]], %[[C]] overflow<nsw> : i32
// CHECK:         arith.cmpi slt, %[[S]], %[[B]] : i32
// CHECK:         cf.cond_br
// CHECK:         llvm.load %[[P]]
// CHECK:         arith.sitofp
// CHECK:         arith.cmpf olt
// CHECK:         arith.select
// CHECK:         cf.br
// CHECK:         return
llvm.func @arith(%a: i32, %b: i32, %p: !llvm.ptr) -> f64 {
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %s = llvm.add %a, %c3 overflow<nsw> : i32
  %lt = llvm.icmp "slt" %s, %b : i32
  llvm.cond_br %lt, ^bb1, ^bb2
^bb1:
  %v = llvm.load %p : !llvm.ptr -> i32
  %f = llvm.sitofp %v : i32 to f64
  %z = llvm.mlir.constant(0.0 : f64) : f64
  %neg = llvm.fcmp "olt" %f, %z : f64
  %r = llvm.select %neg, %z, %f : i1, f64
  llvm.br ^bb3(%r : f64)
^bb2:
  %one = llvm.mlir.constant(1.0 : f64) : f64
  llvm.br ^bb3(%one : f64)
^bb3(%x: f64):
  llvm.return %x : f64
}

// Internal linkage survives; declarations become private func.func.
// CHECK-LABEL: func.func @helper(
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>}
llvm.func internal @helper(%x: i32) -> i32 {
  llvm.return %x : i32
}
// CHECK: func.func private @sqrt(f64) -> f64
llvm.func @sqrt(f64) -> f64

// Variadic functions and functions whose address is taken stay llvm.func;
// direct calls to raised functions become func.call, also inside them.
// CHECK: llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-LABEL: llvm.func @compare(
// CHECK:         func.call @helper
llvm.func @compare(%a: !llvm.ptr, %b: !llvm.ptr) -> i32 {
  %c = llvm.mlir.constant(0 : i32) : i32
  %h = llvm.call @helper(%c) : (i32) -> i32
  llvm.return %h : i32
}
// CHECK-LABEL: func.func @user(
// CHECK:         llvm.mlir.addressof @compare
// CHECK:         call @sqrt
// CHECK:         llvm.call @printf
// CHECK:         %[[P:.*]] = ub.poison : i32
// CHECK:         return %[[P]] : i32
llvm.func @user(%fmt: !llvm.ptr, %x: f64) -> i32 {
  %fp = llvm.mlir.addressof @compare : !llvm.ptr
  %r = llvm.call @sqrt(%x) : (f64) -> f64
  %n = llvm.call @printf(%fmt, %r) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
  llvm.unreachable
}
