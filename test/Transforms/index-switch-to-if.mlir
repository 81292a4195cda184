// approx-index-switch-to-if: index_switch as nested scf.if, cases in
// order, the default last (compile_to_iree runs it for IREE).
// RUN: approx-opt --approx-index-switch-to-if %s | FileCheck %s
// RUN: approx-opt --approx-index-switch-to-if %s | approx-opt --canonicalize | FileCheck %s --check-prefix=NOSWITCH

// CHECK-LABEL: func.func @pick
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[E1:.*]] = arith.cmpi eq, %arg0, %[[C1]] : index
// CHECK: %[[R:.*]] = scf.if %[[E1]] -> (tensor<4xf32>) {
// CHECK:   func.call @one
// CHECK: } else {
// CHECK:   %[[C5:.*]] = arith.constant 5 : index
// CHECK:   %[[E5:.*]] = arith.cmpi eq, %arg0, %[[C5]] : index
// CHECK:   scf.if %[[E5]] -> (tensor<4xf32>) {
// CHECK:     func.call @five
// CHECK:   } else {
// CHECK:     scf.yield %arg1
// CHECK: return %[[R]]
// NOSWITCH-NOT: scf.index_switch
func.func private @one(tensor<4xf32>) -> tensor<4xf32>
func.func private @five(tensor<4xf32>) -> tensor<4xf32>
func.func @pick(%i: index, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.index_switch %i -> tensor<4xf32>
  case 1 {
    %a = func.call @one(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  case 5 {
    %b = func.call @five(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  default {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A switch with only a default is its body.
// CHECK-LABEL: func.func @only_default
// CHECK-NOT: scf.if
// CHECK: arith.addi
func.func @only_default(%i: index, %v: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  default {
    %s = arith.addi %v, %v : i32
    scf.yield %s : i32
  }
  return %r : i32
}
