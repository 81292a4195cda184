// Uplifted loops remember that C's increment was nsw; before lowering, a loop
// whose step is unchanged becomes a while loop with an nsw increment, and a
// perforated one (another step) stays scf.for.
// RUN: approx-opt %s --approx-uplift-while | FileCheck %s --check-prefix=UPLIFT
// RUN: approx-opt %s --approx-uplift-while --approx-lower-nsw-for | FileCheck %s

func.func @f(%n: i32, %k: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %s : i32, i32
  } do {
  ^bb0(%i2: i32, %s2: i32):
    %a = arith.addi %s2, %i2 : i32
    %next = arith.addi %i2, %c1 overflow<nsw> : i32
    scf.yield %next, %a : i32, i32
  }
  return %r#1 : i32
}
// UPLIFT: scf.for
// UPLIFT: } {approx.nsw_step = 1 : i32}
// CHECK-LABEL: func.func @f(
// CHECK:         scf.while
// CHECK:         arith.cmpi slt
// CHECK:       } do {
// CHECK:         arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK-NOT:   approx.nsw_step

// A perforated copy (step changed after uplift) keeps scf.for.
func.func @g(%n: i32, %k: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %n step %c4 iter_args(%s = %c0) -> (i32) : i32 {
    %a = arith.addi %s, %i : i32
    scf.yield %a : i32
  } {approx.nsw_step = 1 : i32}
  return %r : i32
}
// CHECK-LABEL: func.func @g(
// CHECK:         scf.for
// CHECK-NOT:     approx.nsw_step
