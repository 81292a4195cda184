// Hand-written knobs whose params are malformed.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --emit-management

func.func @f(%x: i32) {
  // expected-error @+1 {{params.decision_tree lacks 'thresholds'}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], params = {decision_tree = {transform_type = "loop_perforate", state_function = "f", state_indices = array<i64: 0>, decisions = array<i32: 0, 1>}}}> {
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) {
  // expected-error @+1 {{params.static_transform.knob_val has the wrong attribute kind}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], params = {static_transform = {transform_type = "loop_perforate", knob_val = "two"}}}> {
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) {
  // expected-error @+1 {{params needs exactly one of 'decision_tree' and 'static_transform'}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], params = {}}> {
    approx.yield
  }
  return
}

// -----

func.func private @s(i64) -> i32
func.func @f(%x: i32) {
  // expected-error @+1 {{state function 's' has type (i64) -> (i32) but must have type (i32) -> (i32)}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], params = {decision_tree = {transform_type = "loop_perforate", state_function = "s", state_indices = array<i64: 0>, thresholds = array<i32: 1>, decisions = array<i32: 0, 1>}}}> {
    approx.yield
  }
  return
}

// -----

func.func private @s(i32) -> i32
func.func @f(%x: i32) {
  // expected-error @+1 {{state index 3 is out of range for a function with 1 arguments}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], params = {decision_tree = {transform_type = "loop_perforate", state_function = "s", state_indices = array<i64: 3>, thresholds = array<i32: 1>, decisions = array<i32: 0, 1>}}}> {
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) {
  // expected-remark @+1 {{the other knob is here}}
  approx.knob <{id = 0 : i32, name = "a", transform_types = [#approx.kind<loop_perforate>], params = {static_transform = {transform_type = "loop_perforate", knob_val = 1 : i32}}}> {
    approx.yield
  }
  // expected-error @+1 {{id 0 is used by another knob}}
  approx.knob <{id = 0 : i32, name = "b", transform_types = [#approx.kind<loop_perforate>], params = {static_transform = {transform_type = "loop_perforate", knob_val = 1 : i32}}}> {
    approx.yield
  }
  return
}
