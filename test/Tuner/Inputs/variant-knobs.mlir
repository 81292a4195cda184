// The space of test/Tuner/variant-knobs.test: `mean` may be replaced by
// its variant approx_mean_1 (func_substitute over {0, 1}); each variant has
// a perforation knob of its own. approx_mean_1's runs only when `mean`
// selects 1; approx_mean_2's never (no value of `mean` selects 2).

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
  }
  %mean = arith.divf %r#0, %r#1 : f64
  return %mean : f64
}

// the same sum (a cheaper variant would go here)
func.func @approx_mean_1(%n: index) -> f64 {
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
  }
  %mean = arith.divf %r#0, %r#1 : f64
  return %mean : f64
}

// a variant no decision can select
func.func @approx_mean_2(%n: index) -> f64 {
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
  }
  %mean = arith.divf %r#0, %r#1 : f64
  return %mean : f64
}

"approx.util.annotation.static_transform"() <{func_name = "mean",
    transform_type = "func_substitute", knob_val = 0 : i32,
    decision_values = array<i32: 0, 1>}> : () -> ()
"approx.util.annotation.static_transform"() <{func_name = "approx_mean_1",
    transform_type = "loop_perforate", knob_val = 0 : i32,
    decision_values = array<i32: 0, 2, 4>}> : () -> ()
"approx.util.annotation.static_transform"() <{func_name = "approx_mean_2",
    transform_type = "loop_perforate", knob_val = 0 : i32,
    decision_values = array<i32: 0, 2, 3>}> : () -> ()
