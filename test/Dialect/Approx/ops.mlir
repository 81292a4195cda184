// RUN: approx-opt %s | approx-opt | FileCheck %s
// RUN: approx-opt %s --mlir-print-op-generic | approx-opt | FileCheck %s

func.func private @get_state(i32) -> i32
func.func private @check(i32, i32, i32) -> i1
func.func private @recover(i32, i32) -> i32
func.func private @g(i32) -> i32
func.func private @approx_g_1(i32) -> i32

// CHECK-LABEL: func.func @knob_decision_tree
// CHECK: %[[R:.*]] = approx.knob <{id = 0 : i32, name = "dt", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
// CHECK:   %[[S:.*]] = func.call @get_state(%arg0)
// CHECK:   approx.decision_tree loop_perforate %[[S]] <{decision_values = array<i32: 0, 1, 2>, decisions = array<i32: 0, 2>, state_function = "get_state", state_indices = array<i64: 0>, thresholds = array<i32: 10>, thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 20>}> : i32
// CHECK:   approx.yield %{{.*}} : i32
// CHECK: return %[[R]]
func.func @knob_decision_tree(%n: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "dt", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    %s = func.call @get_state(%n) : (i32) -> i32
    approx.decision_tree loop_perforate %s <{
        state_function = "get_state", state_indices = array<i64: 0>,
        thresholds = array<i32: 10>, decisions = array<i32: 0, 2>,
        thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 20>,
        decision_values = array<i32: 0, 1, 2>}> : i32
    approx.yield %n : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @knob_static_with_contract
// CHECK: approx.knob <{callee = @g, id = 1 : i32, name = "st", transform_types = [#approx.kind<func_substitute>]}> -> i32
// CHECK:   approx.transform func_substitute <{decision_values = array<i32: 0, 1>, knob_val = 1 : i32, runtime_param = "st_knob_val"}>
// CHECK:   approx.safety_contract <{checker = @check, recover = @recover}>
func.func @knob_static_with_contract(%a: i32, %b: i32) -> i32 {
  %r = approx.knob <{id = 1 : i32, name = "st", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    approx.transform func_substitute <{knob_val = 1 : i32,
                       decision_values = array<i32: 0, 1>, runtime_param = "st_knob_val"}>
    approx.safety_contract <{checker = @check, recover = @recover}>
    %x = func.call @g(%a) : (i32) -> i32
    approx.yield %x : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @knob_dynamic_transform
// CHECK: approx.knob <{id = 2 : i32, lowered, name = "dyn", transform_types = [#approx.kind<task_skipping>]}>
// CHECK: approx.knob <{id = 3 : i32, name = "dyn2", transform_types = [#approx.kind<task_skipping>]}>
// CHECK:   approx.transform task_skipping %arg0
func.func @knob_dynamic_transform(%k: i32) {
  approx.knob <{id = 2 : i32, name = "dyn", transform_types = [#approx.kind<task_skipping>], lowered}> {
    approx.yield
  }
  approx.knob <{id = 3 : i32, name = "dyn2", transform_types = [#approx.kind<task_skipping>]}> {
    approx.transform task_skipping %k
    approx.yield
  }
  return
}

func.func private @check1(i32, i32) -> i1
func.func private @recover1(i32) -> i32
func.func @ann_target(%x: i32) -> i32 {
  return %x : i32
}

// CHECK: approx.util.annotation.decision_tree <{callee = "g", decisions = array<i32: 0, 1>, func_name = "ann_target", knob_name = "inner", loop_path = array<i64: 0, 1>, state_function = "get_state", state_indices = array<i64: -1>, thresholds = array<i32: 3>, transform_type = "func_substitute"}>
approx.util.annotation.decision_tree <{func_name = "ann_target",
    transform_type = "func_substitute", state_indices = array<i64: -1>,
    state_function = "get_state", thresholds = array<i32: 3>,
    decisions = array<i32: 0, 1>, knob_name = "inner",
    loop_path = array<i64: 0, 1>, callee = "g"}>
// CHECK: approx.util.annotation.static_transform <{func_name = "ann_target", knob_val = 2 : i32, transform_type = "loop_perforate"}>
approx.util.annotation.static_transform <{func_name = "ann_target",
    transform_type = "loop_perforate", knob_val = 2 : i32}>
// CHECK: approx.util.annotation.safety_contract <{checker = "check1", func_name = "ann_target", recover = "recover1"}>
approx.util.annotation.safety_contract <{func_name = "ann_target",
    checker = "check1", recover = "recover1"}>
// CHECK: approx.util.annotation.convert_to_call <{func_name = "ann_target"}>
approx.util.annotation.convert_to_call <{func_name = "ann_target"}>
