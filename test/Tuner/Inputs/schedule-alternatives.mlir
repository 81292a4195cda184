// tune.alternatives and bounds as options (test/Tuner/schedule-space.test).
module attributes {transform.with_named_sequence} {
  func.func @f(%x: i32) -> i32 {
    return %x : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tune.knob<"tile"> = 16 from options = {lb = 8, ub = 64, step = 8} -> !transform.param<i64>
    transform.tune.alternatives<"variant"> selected_region = 1 {
      transform.yield
    }, {
      transform.yield
    }, {
      transform.yield
    }
    transform.yield
  }
}
