// RUN: approx-opt %s -split-input-file --emit-approx --emit-management | FileCheck %s

// The state is the state function applied to the arguments picked by
// state_indices; negative indices count from the last argument.
func.func private @state2(i32, f32) -> i32
func.func @f(%a: f32, %b: i32, %c: f32) -> f32 {
  %r = arith.addf %a, %c : f32
  return %r : f32
}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "task_skipping", state_indices = array<i64: 1, -1>, state_function = "state2", thresholds = array<i32: 4, 9>, decisions = array<i32: 0, 1, 2>, thresholds_lowers = array<i32: 0, 5>, thresholds_uppers = array<i32: 4, 20>, decision_values = array<i32: 0, 1, 2>}>

// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[A:.*]]: f32, %[[B:.*]]: i32, %[[C:.*]]: f32)
// CHECK:         approx.knob <{id = 0 : i32, name = "f", transform_types = [#approx.kind<task_skipping>]}> -> f32 {
// CHECK-NEXT:      %[[S:.*]] = func.call @state2(%[[B]], %[[C]]) : (i32, f32) -> i32
// CHECK-NEXT:      approx.decision_tree task_skipping %[[S]] <{decision_values = array<i32: 0, 1, 2>, decisions = array<i32: 0, 1, 2>, state_function = "state2", state_indices = array<i64: 1, -1>, thresholds = array<i32: 4, 9>, thresholds_lowers = array<i32: 0, 5>, thresholds_uppers = array<i32: 4, 20>}> : i32
// CHECK-NEXT:      arith.addf

// -----

// A static transform and a safety contract.
func.func private @check(i32, i32) -> i1
func.func private @approx_g_1(i32) -> i32
func.func @g(%x: i32) -> i32 { return %x : i32 }
approx.util.annotation.static_transform <{func_name = "g", transform_type = "func_substitute", knob_val = 1 : i32}>
approx.util.annotation.safety_contract <{func_name = "g", checker = "check", recover = "g"}>

// CHECK-LABEL: func.func @g(
// CHECK:         approx.knob <{id = 0 : i32, name = "g", transform_types = [#approx.kind<func_substitute>]}> -> i32 {
// CHECK-NEXT:      approx.transform func_substitute <{knob_val = 1 : i32}>
// CHECK-NEXT:      approx.safety_contract <{checker = @check, recover = @g}>
// CHECK-NEXT:      approx.yield
