// RUN: approx-opt %s -split-input-file -verify-diagnostics --finalize-approx
// Nothing of the approx dialect may survive.

func.func @f() {
  // expected-error @+1 {{was not lowered; run transform-approx before finalize-approx}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 2 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{remains after finalize-approx: an annotation must be consumed by emit-approx}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32}>
