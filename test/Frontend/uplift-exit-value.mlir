// The induction variable's value after an uplifted loop is
// lb + ceildiv(max(ub - lb, 0), step) * step (upstream 22.1.8 gets it wrong).
// RUN: approx-opt %s --approx-uplift-while | FileCheck %s
// RUN: approx-opt %s --approx-uplift-while -o %t.mlir
// RUN: approx-compile %t.mlir %S/Inputs/exit_value.c -o %t
// RUN: %t | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @last(
// CHECK-SAME:    %[[LB:.*]]: i32, %[[UB:.*]]: i32)
// CHECK:         %[[STEP:.*]] = arith.constant 3 : i32
// CHECK:         scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[STEP]]
// CHECK:         %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : i32
// CHECK:         %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : i32
// CHECK:         %[[TRIPS:.*]] = arith.ceildivsi %[[POS]], %[[STEP]] : i32
// CHECK:         %[[ADV:.*]] = arith.muli %[[TRIPS]], %[[STEP]] : i32
// CHECK:         %[[EXIT:.*]] = arith.addi %[[LB]], %[[ADV]] : i32
// CHECK:         arith.muli %[[EXIT]], %{{.*}} : i32
// CHECK-NOT:     scf.while
func.func @last(%lb: i32, %ub: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %z = arith.constant 0 : i32
  %r:2 = scf.while (%i = %lb, %n = %z) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %i, %ub : i32
    scf.condition(%c) %i, %n : i32, i32
  } do {
  ^bb0(%i2: i32, %n2: i32):
    %one = arith.constant 1 : i32
    %n3 = arith.addi %n2, %one : i32
    %next = arith.addi %i2, %c3 : i32
    scf.yield %next, %n3 : i32, i32
  }
  // exit value * 1000 + trip count
  %k = arith.constant 1000 : i32
  %e = arith.muli %r#0, %k : i32
  %sum = arith.addi %e, %r#1 : i32
  return %sum : i32
}

// EXEC: exit_value: all 7 checks passed
