// One case per verifier message of the approx dialect.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{unknown transform type 'loop_skip' (expected one of: loop_perforate, loop_truncate_end, loop_truncate_start, loop_random_skip, func_substitute, task_skipping, decode_quantize, precision_reduce)}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_skip", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 1>, decisions = array<i32: 0, 1>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{needs at least one threshold}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32>, decisions = array<i32: 0>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{has 2 thresholds, so needs 3 decisions, but has 2}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 1, 5>, decisions = array<i32: 0, 1>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{thresholds must be strictly ascending, but threshold 1 (5) <= threshold 0 (5)}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5, 5>, decisions = array<i32: 0, 1, 2>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{thresholds_lowers and thresholds_uppers must be given together}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>, thresholds_lowers = array<i32: 0>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{thresholds_lowers/thresholds_uppers need one bound per threshold (1), got 2/1}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>, thresholds_lowers = array<i32: 0, 1>, thresholds_uppers = array<i32: 9>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{threshold 0 has lower bound 9 above upper bound 3}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>, thresholds_lowers = array<i32: 9>, thresholds_uppers = array<i32: 3>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{threshold 0 (25) is outside its bounds [1, 20]}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 25>, decisions = array<i32: 0, 1>, thresholds_lowers = array<i32: 1>, thresholds_uppers = array<i32: 20>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{decision 1 is -2; knob values must be >= 0}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, -2>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{decision_values must not be empty}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>, decision_values = array<i32>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{decision 1 (3) is not one of decision_values}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 3>, decision_values = array<i32: 0, 1, 2>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{decision value -1 is negative; knob values must be >= 0}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>, decision_values = array<i32: -1, 0, 1>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{num_thresholds is 2 but there are 1 thresholds}}
"approx.util.annotation.decision_tree"() <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", num_thresholds = 2 : i32, thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}> : () -> ()

// -----

func.func private @s(i32) -> i32
// expected-error @+1 {{annotated function 'nope' is not defined}}
approx.util.annotation.decision_tree <{func_name = "nope", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}>

// -----

func.func private @s(i32) -> i32
func.func private @decl(i32) -> i32
// expected-error @+1 {{annotated function 'decl' is only declared; it needs a body to approximate}}
approx.util.annotation.decision_tree <{func_name = "decl", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{state function 'missing' is not defined}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "missing", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}>

// -----

func.func private @s(i64) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{state function 's' has type (i64) -> (i32) but must have type (i32) -> (i32)}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{state index -2 is out of range for a function with 1 arguments}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: -2>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{func_substitute variant 'approx_f_2' is not defined}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "func_substitute", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 2>}>

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func private @approx_f_1(f32) -> i32
// expected-error @+1 {{func_substitute variant 'approx_f_1' has type (f32) -> (i32) but must have type (i32) -> (i32)}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "func_substitute", knob_val = 1 : i32}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{substituted function 'g' is not defined}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "func_substitute", knob_val = 1 : i32, callee = "g"}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{callee is only meaningful for func_substitute}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 1 : i32, callee = "f"}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{knob_val must be >= 0, got -1}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = -1 : i32}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{knob_val 3 is not one of decision_values}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 3 : i32, decision_values = array<i32: 0, 2>}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{decision value -3 is negative}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 0 : i32, decision_values = array<i32: 0, -3>}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{knob_name must not be empty}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 1 : i32, knob_name = ""}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{loop_path must not be empty when given}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 1 : i32, loop_path = array<i64>}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{loop_path entries must be >= 0, got -1}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 1 : i32, loop_path = array<i64: -1>}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func private @r(i32) -> i32
// expected-error @+1 {{checker 'c' is not defined}}
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func private @c(i32, i32) -> i1
// expected-error @+1 {{recover function 'r' is not defined}}
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func private @c(i32) -> i1
func.func private @r(i32) -> i32
// expected-error @+1 {{checker 'c' has type (i32) -> (i1) but must have type (i32, i32) -> (i1)}}
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>

// -----

func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func private @c(i32, i32) -> i1
func.func private @r(i32) -> f32
// expected-error @+1 {{recover function 'r' has type (i32) -> (f32) but must have type (i32) -> (i32)}}
approx.util.annotation.safety_contract <{func_name = "f", checker = "c", recover = "r"}>

// -----

// expected-error @+1 {{annotated function 'g' is not defined}}
approx.util.annotation.convert_to_call <{func_name = "g"}>

// -----

func.func @f() {
  // expected-error @+1 {{'approx.util.annotation.convert_to_call' op expects parent op 'builtin.module'}}
  approx.util.annotation.convert_to_call <{func_name = "f"}>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{id must be >= 0, got -1}}
  approx.knob <{id = -1 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{name must not be empty}}
  approx.knob <{id = 0 : i32, name = "", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{transform_types must not be empty}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = []}> {
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+2 {{expected ::approx::TransformKind to be one of: loop_perforate, loop_truncate_end, loop_truncate_start, loop_random_skip, func_substitute, task_skipping, decode_quantize, precision_reduce}}
  // expected-error @+1 {{failed to parse Approx_TransformKindAttr parameter 'value'}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<fuse>]}> {
    approx.yield
  }
  return
}

// -----

func.func @f() {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{unknown transform kind 'fuse' (expected one of: loop_perforate, loop_truncate_end, loop_truncate_start, loop_random_skip, func_substitute, task_skipping, decode_quantize, precision_reduce)}}
    approx.transform fuse <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{callee is only meaningful for func_substitute}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], callee = @f}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{callee 'g' is not defined}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<func_substitute>], callee = @g}> {
    approx.transform func_substitute <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) -> i64 {
  // expected-error @+1 {{yields 1 values whose types do not match the knob's results}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> -> i64 {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.yield %x : i32
  }
  return %r : i64
}

// -----

func.func @f(%x: i32) {
  // expected-error @+1 {{body must end with approx.yield}}
  "approx.knob"() <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> ({
    "llvm.unreachable"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{has 2 management ops; a knob holds one decision_tree or transform}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.transform loop_perforate <{knob_val = 2 : i32}>
    approx.yield
  }
  return
}

// -----

func.func private @c() -> i1
func.func @f() {
  // expected-error @+1 {{has more than one safety_contract}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.safety_contract <{checker = @c, recover = @f}>
    approx.safety_contract <{checker = @c, recover = @f}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{has nothing to transform: it needs a decision_tree or transform (or params for emit-management)}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{is lowered but still holds management ops or params}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], lowered}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{transform type 'task_skipping' is not among the knob's transform_types}}
    approx.decision_tree task_skipping %x <{state_function = "s", state_indices = array<i64: 0>, thresholds = array<i32: 1>, decisions = array<i32: 0, 1>}> : i32
    approx.yield
  }
  return
}

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{runtime_params needs one name per threshold and decision (3), got 1}}
    approx.decision_tree loop_perforate %x <{state_function = "s", state_indices = array<i64: 0>, thresholds = array<i32: 1>, decisions = array<i32: 0, 1>, runtime_params = ["a"]}> : i32
    approx.yield
  }
  return
}

// -----

func.func private @s(i32) -> i64
func.func @f(%x: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{state function 's' must return exactly one i32}}
    approx.decision_tree loop_perforate %x <{state_function = "s", state_indices = array<i64: 0>, thresholds = array<i32: 1>, decisions = array<i32: 0, 1>}> : i32
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) {
  // expected-error @+1 {{'approx.decision_tree' op expects parent op 'approx.knob'}}
  approx.decision_tree loop_perforate %x <{state_function = "f", state_indices = array<i64: 0>, thresholds = array<i32: 1>, decisions = array<i32: 0, 1>}> : i32
  return
}

// -----

func.func @f(%x: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{needs exactly one knob value: a knob_val attribute or a value operand}}
    approx.transform loop_perforate %x <{knob_val = 1 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{knob_val must be >= 0, got -4}}
    approx.transform loop_perforate <{knob_val = -4 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{knob_val 2 is not one of decision_values}}
    approx.transform loop_perforate <{knob_val = 2 : i32, decision_values = array<i32: 0, 1>}>
    approx.yield
  }
  return
}

// -----

func.func @f() {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{decision value -1 is negative}}
    approx.transform loop_perforate <{knob_val = 0 : i32, decision_values = array<i32: -1, 0>}>
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    // expected-error @+1 {{runtime_param needs a default knob_val}}
    approx.transform loop_perforate %x <{runtime_param = "k_knob_val"}>
    approx.yield
  }
  return
}

// -----

func.func private @c(i32) -> i1
func.func private @r(i32) -> i32
func.func @f(%x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    // expected-error @+1 {{checker 'c' has type (i32) -> (i1) but must have type (i32, i32) -> (i1)}}
    approx.safety_contract <{checker = @c, recover = @r}>
    approx.yield %x : i32
  }
  return %r : i32
}

// -----

func.func private @c(i32, i32, i32) -> i1
func.func private @r(i32, i32) -> i32
func.func @f(%x: i32, %y: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    // expected-error @+1 {{checker 'c' has type (i32, i32, i32) -> (i1) but must have type (i32, i32) -> (i1)}}
    approx.safety_contract <{checker = @c, recover = @r}>
    approx.yield
  }
  return
}

// -----

func.func private @c(i32) -> i1
func.func private @r(i32) -> i32
func.func @f(%x: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 1 : i32}>
    // expected-error @+1 {{recover function 'r' has type (i32) -> (i32) but must have type (i32) -> ()}}
    approx.safety_contract <{checker = @c, recover = @r}>
    approx.yield
  }
  return
}

// -----

memref.global "private" @s : memref<i32>
func.func @f(%x: i32) -> i32 { return %x : i32 }
// expected-error @+1 {{state function 's' is not a function}}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}>

// -----

func.func private @c() -> i1
func.func private @r()
approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
  approx.transform loop_perforate <{knob_val = 1 : i32}>
  // expected-error @+1 {{must be inside a function}}
  approx.safety_contract <{checker = @c, recover = @r}>
  approx.yield
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<4xf32> {
    // expected-error @+1 {{decode_quantize has no knob value 4 (0 = exact, 1 = int8 per channel, 2 = int8 per tensor, 3 = int8 per channel on weights only)}}
    approx.transform decode_quantize <{knob_val = 4 : i32}>
    approx.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @s(%x: i32) -> i32 {
  return %x : i32
}
func.func @f(%x: tensor<4xf32>, %s: i32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error @+1 {{precision_reduce has no knob value 4 (0 = exact, 1 = f16, 2 = bf16, 3 = bf16 in contractions only)}}
"approx.util.annotation.decision_tree"() <{func_name = "f", transform_type = "precision_reduce", state_indices = array<i64: -1>, state_function = "s", thresholds = array<i32: 1>, decisions = array<i32: 0, 1>, decision_values = array<i32: 0, 1, 4>}> : () -> ()

// -----

// A misspelled attribute (here in the seed's generic form, where inherent
// attributes may be written in the attribute dictionary) is an error, not
// silently dropped with the bounds it carried.
func.func @s(%x: i32) -> i32 { return %x : i32 }
func.func @f(%n: i32) -> i32 { return %n : i32 }
// expected-error @+1 {{unknown attribute 'thresholds_lower' (did you mean 'thresholds_lowers'?)}}
"approx.util.annotation.decision_tree"() {func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5>, thresholds_lower = array<i32: 0>, thresholds_upper = array<i32: 10>, decisions = array<i32: 0, 1>} : () -> ()

// -----

func.func @f(%n: i32) -> i32 { return %n : i32 }
// expected-error @+1 {{unknown attribute 'colour' (an annotation takes only its own attributes)}}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32}> {colour = "red"}

// -----

func.func @f(%n: i32) -> i32 { return %n : i32 }
// expected-error @+1 {{unknown attribute 'checkr' (did you mean 'checker'?)}}
"approx.util.annotation.safety_contract"() {func_name = "f", checkr = "c", checker = "c", recover = "r"} : () -> ()
