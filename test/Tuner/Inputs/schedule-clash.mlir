// A script choice named like an annotation's parameter.
module attributes {transform.with_named_sequence} {
  func.func @f(%x: i32) -> i32 {
    return %x : i32
  }
  approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 0 : i32}>
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.tune.knob<"f_knob_val"> = 0 from options = [0, 2] -> !transform.param<i64>
    transform.yield
  }
}
