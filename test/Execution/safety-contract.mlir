// Try-check-recover: the approximate square root is checked, and recovered
// with the exact one when the check fails.
//
// RUN: approx-compile %s %S/Inputs/safety_contract.c -o %t
// RUN: %t | FileCheck %s

// CHECK: safety_contract: all {{[0-9]+}} checks passed

// sqrt by 40 Newton steps
func.func @root(%x: f64) -> f64 {
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
func.func private @approx_root_1(f64) -> f64
func.func private @root_ok(f64, f64) -> i1
func.func private @root_exact(f64) -> f64

approx.util.annotation.static_transform <{func_name = "root",
    transform_type = "func_substitute", knob_val = 1 : i32}>
approx.util.annotation.safety_contract <{func_name = "root",
    checker = "root_ok", recover = "root_exact"}>
