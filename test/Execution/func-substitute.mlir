// func_substitute on a whole function (decision tree) and on the calls inside
// one loop of another function (loop_path + callee), with the approximate
// variants written in C and bound by symbol name at link time.
//
// RUN: approx-compile %s %S/Inputs/func_substitute.c -o %t
// RUN: %t | FileCheck %s
// RUN: approx-compile %s %S/Inputs/func_substitute.c -o %t.exact --approx-exact
// RUN: %t.exact exact | FileCheck %s

// CHECK: func_substitute: all {{[0-9]+}} checks passed

func.func @approx_state_identity(%s: i32) -> i32 {
  return %s : i32
}

// sqrt by 40 Newton steps from x
func.func @root(%x: f64, %state: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %half = arith.constant 0.5 : f64
  %r = scf.for %i = %c0 to %c40 step %c1 iter_args(%y = %x) -> (f64) {
    %q = arith.divf %x, %y : f64
    %s = arith.addf %y, %q : f64
    %n = arith.mulf %s, %half : f64
    scf.yield %n : f64
  }
  return %r : f64
}
func.func private @approx_root_1(f64, i32) -> f64
func.func private @approx_root_2(f64, i32) -> f64

// sum over i < n of weight(i), the loop's calls substitutable
func.func private @weight(i32) -> f64
func.func private @approx_weight_1(i32) -> f64
func.func @total(%n: i32, %state: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (i32, f64) -> (i32, f64) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %acc : i32, f64
  } do {
  ^bb0(%i2: i32, %acc2: f64):
    %w = func.call @weight(%i2) : (i32) -> f64
    %a = arith.addf %acc2, %w : f64
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next, %a : i32, f64
  }
  return %r#1 : f64
}

"approx.util.annotation.decision_tree"() <{func_name = "root",
    transform_type = "func_substitute", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 5, 10>,
    decisions = array<i32: 0, 1, 2>, decision_values = array<i32: 0, 1, 2>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "total",
    knob_name = "weights", loop_path = array<i64: 0>, callee = "weight",
    transform_type = "func_substitute", state_indices = array<i64: 1>,
    state_function = "approx_state_identity", thresholds = array<i32: 50>,
    decisions = array<i32: 0, 1>}> : () -> ()
