// The seed prototype's files write annotations in generic form; they parse
// unchanged and survive a round trip.
// RUN: approx-opt %s | FileCheck %s
// RUN: approx-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

module {
  func.func @approx_state_identity(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  func.func @choose_cluster(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32) -> i32 {
    return %a : i32
  }
  func.func @update_node_rank(%x: f64) -> f64 {
    return %x : f64
  }
  "approx.util.annotation.decision_tree"() <{func_name = "choose_cluster",
      transform_type = "loop_perforate", state_indices = array<i64: 5>,
      state_function = "approx_state_identity", num_thresholds = 1 : i32,
      thresholds_uppers = array<i32: 20>, thresholds_lowers = array<i32: 1>,
      decision_values = array<i32: 0, 1, 2, 3, 4>, thresholds = array<i32: 8>,
      decisions = array<i32: 1, 2>}> : () -> ()
  "approx.util.annotation.convert_to_call"() <{func_name = "update_node_rank"}> : () -> ()
}

// CHECK: approx.util.annotation.decision_tree <{decision_values = array<i32: 0, 1, 2, 3, 4>, decisions = array<i32: 1, 2>, func_name = "choose_cluster", num_thresholds = 1 : i32, state_function = "approx_state_identity", state_indices = array<i64: 5>, thresholds = array<i32: 8>, thresholds_lowers = array<i32: 1>, thresholds_uppers = array<i32: 20>, transform_type = "loop_perforate"}>
// CHECK: approx.util.annotation.convert_to_call <{func_name = "update_node_rank"}>
// GENERIC: "approx.util.annotation.decision_tree"() <{decision_values = array<i32: 0, 1, 2, 3, 4>, decisions = array<i32: 1, 2>, func_name = "choose_cluster", num_thresholds = 1 : i32, state_function = "approx_state_identity", state_indices = array<i64: 5>, thresholds = array<i32: 8>, thresholds_lowers = array<i32: 1>, thresholds_uppers = array<i32: 20>, transform_type = "loop_perforate"}> : () -> ()
// GENERIC: "approx.util.annotation.convert_to_call"() <{func_name = "update_node_rank"}> : () -> ()
