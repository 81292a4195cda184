// task_skipping forces a branch of the first scf.if / scf.index_switch of
// the knob: k = 1 the first branch, k = 2 the second, 0 keeps the test.
//
// RUN: approx-compile %s %S/Inputs/task_skipping.c -o %t
// RUN: %t | FileCheck %s

// CHECK: task_skipping: all {{[0-9]+}} checks passed

func.func @approx_state_identity(%s: i32) -> i32 {
  return %s : i32
}

// refine(x): x > 1 gets 30 Newton steps towards sqrt(x) (the costly task),
// otherwise x is returned as is.
func.func @refine(%x: f64, %state: i32) -> f64 {
  %one = arith.constant 1.0 : f64
  %big = arith.cmpf ogt, %x, %one : f64
  %r = scf.if %big -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c30 = arith.constant 30 : index
    %half = arith.constant 0.5 : f64
    %y = scf.for %i = %c0 to %c30 step %c1 iter_args(%y = %x) -> (f64) {
      %q = arith.divf %x, %y : f64
      %s = arith.addf %y, %q : f64
      %n = arith.mulf %s, %half : f64
      scf.yield %n : f64
    }
    scf.yield %y : f64
  } else {
    scf.yield %x : f64
  }
  return %r : f64
}

// classify(sel): a three-way switch; static knob forcing the second case.
func.func @classify(%sel: index) -> i32 {
  %r = scf.index_switch %sel -> i32
  case 0 {
    %a = arith.constant 100 : i32
    scf.yield %a : i32
  }
  case 1 {
    %b = arith.constant 200 : i32
    scf.yield %b : i32
  }
  default {
    %c = arith.constant 300 : i32
    scf.yield %c : i32
  }
  return %r : i32
}

"approx.util.annotation.decision_tree"() <{func_name = "refine",
    transform_type = "task_skipping", state_indices = array<i64: 1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    decisions = array<i32: 0, 1, 2>}> : () -> ()
approx.util.annotation.static_transform <{func_name = "classify",
    transform_type = "task_skipping", knob_val = 2 : i32}>
