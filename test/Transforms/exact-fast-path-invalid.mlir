// RUN: approx-opt %s -split-input-file -verify-diagnostics --emit-approx --emit-management --config-approx=mode=runtime --clone-exact-approx

// The name of a knob function's exact copy is reserved.
func.func @leaf(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %i : i32
    scf.yield %b : i32
  }
  return %r : i32
}
// expected-error @+1 {{symbol '__approx_exact_leaf' is reserved for the exact copy of @leaf in runtime-table builds}}
func.func @__approx_exact_leaf(%n: i32) -> i32 {
  return %n : i32
}
func.func @run(%m: index, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %m step %c1 {
    %v = func.call @leaf(%n) : (i32) -> i32
  }
  return
}
approx.util.annotation.static_transform <{func_name = "leaf", transform_type = "loop_perforate", knob_val = 2 : i32}>
