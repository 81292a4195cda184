// RUN: approx-opt %s -split-input-file -verify-diagnostics --emit-approx

func.func @f(%n: index) { return }
// expected-note @+1 {{first annotation here}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32}>
// expected-error @+1 {{this knob already has a transform annotation; a knob takes one decision_tree or static_transform (use knob_name or loop_path for another knob)}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 3 : i32}>

// -----

func.func @f(%n: i32) -> i32 { return %n : i32 }
func.func private @c(i32, i32) -> i1
func.func private @r(i32) -> i32
// expected-error @+1 {{safety_contract has no transform to guard: add a decision_tree or static_transform annotation for the same function and knob}}
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>

// -----

func.func @f(%n: i32) -> i32 { return %n : i32 }
func.func private @c(i32, i32) -> i1
func.func private @r(i32) -> i32
approx.util.annotation.static_transform <{func_name = "f", transform_type = "task_skipping", knob_val = 1 : i32}>
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>
// expected-error @+1 {{this knob already has a safety_contract annotation}}
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
// expected-error @+1 {{loop_path [0, 0] selects loop 0 at depth 1 of 'f', but there is no scf.for/scf.while loop there}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32, loop_path = array<i64: 0, 0>, knob_name = "x"}>

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
// expected-error @+1 {{loop_path [3] selects loop 3 at depth 0 of 'f', but there are only 1 loop(s) there}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32, loop_path = array<i64: 3>}>

// -----

func.func @f(%n: index) { return }
func.func @f_x(%n: index) { return }
// expected-note @+1 {{other knob annotated here}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32, knob_name = "x"}>
// expected-error @+1 {{knob name 'f_x' is already used; give each knob of a function a distinct knob_name}}
approx.util.annotation.static_transform <{func_name = "f_x", transform_type = "loop_perforate", knob_val = 2 : i32}>

// -----

func.func @g(%x: i32) -> i32 { return %x : i32 }
func.func @approx_f_1(%n: index) { return }
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
// expected-error @+1 {{func_substitute on a loop needs a 'callee' naming the function whose calls inside the loop are substituted}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "func_substitute", knob_val = 1 : i32, loop_path = array<i64: 0>}>

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32, loop_path = array<i64: 0>}>
// expected-error @+1 {{convert_to_call cannot be combined with a loop_path knob on the same function}}
approx.util.annotation.convert_to_call <{func_name = "f"}>

// -----

func.func @f(%n: index) { return }
approx.util.annotation.convert_to_call <{func_name = "f"}>
// expected-error @+1 {{duplicate convert_to_call for 'f'}}
approx.util.annotation.convert_to_call <{func_name = "f"}>

// -----

func.func @f(%n: index) { return }
func.func private @__approx_exact_f(index)
// expected-error @+1 {{cannot outline 'f': symbol '__approx_exact_f' already exists}}
approx.util.annotation.convert_to_call <{func_name = "f"}>

// -----

llvm.func @f(%n: i32) {
  llvm.return
}
// expected-error @+1 {{annotated function 'f' must be a func.func}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32}>
