// The seed prototype's generic form, with values outside their own bounds.
module {
  func.func @approx_state_identity(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  func.func @choose_cluster(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32) -> i32 {
    return %a : i32
  }
  "approx.util.annotation.decision_tree"() <{func_name = "choose_cluster",
      transform_type = "loop_perforate", state_indices = array<i64: 5>,
      state_function = "approx_state_identity", num_thresholds = 1 : i32,
      thresholds_uppers = array<i32: 40>, thresholds_lowers = array<i32: 1>,
      decision_values = array<i32: 0, 1, 2, 3, 4>, thresholds = array<i32: 2000>,
      decisions = array<i32: 1, 6>}> : () -> ()
}
