// A space with a transform script's choices next to an annotation's knob
// (test/Tuner/schedule-space.test).
module attributes {transform.with_named_sequence} {
  // mean of (i * 7) mod 13 over i in [0, n)
  func.func @mean(%n: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f64
    %one = arith.constant 1.0 : f64
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %z, %cnt = %z) -> (f64, f64) {
      %m = arith.muli %i, %c7 : index
      %v = arith.remui %m, %c13 : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f64
      %s2 = arith.addf %sum, %vf : f64
      %c2 = arith.addf %cnt, %one : f64
      scf.yield %s2, %c2 : f64, f64
    } {tag = "mean"}
    %mean = arith.divf %r#0, %r#1 : f64
    return %mean : f64
  }

  // the same mean over (i * 5) mod 11, whose loop the annotation perforates
  func.func @other(%n: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f64
    %one = arith.constant 1.0 : f64
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %z, %cnt = %z) -> (f64, f64) {
      %m = arith.muli %i, %c5 : index
      %v = arith.remui %m, %c11 : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f64
      %s2 = arith.addf %sum, %vf : f64
      %c2 = arith.addf %cnt, %one : f64
      scf.yield %s2, %c2 : f64, f64
    }
    %mean = arith.divf %r#0, %r#1 : f64
    return %mean : f64
  }
  approx.util.annotation.static_transform <{func_name = "other", transform_type = "loop_perforate", knob_val = 0 : i32, decision_values = array<i32: 0, 2, 3>}>

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match attributes{tag = "mean"} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"mean_stride"> = 0 from options = [0, 2, 4, 8] -> !transform.param<i64>
    transform.approx.loop_perforate %loop by %k : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
