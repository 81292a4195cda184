// Load-adaptive numerical integration: pi = integral of 4 / (1 + x^2) over
// [0, 1] by the midpoint rule. The knob perforates the integration loop
// according to the current load (pending requests): under light load the
// answer is exact, under heavy load every 4th or 16th sample is taken.
//
// Build and run: see ../../scripts/demo.sh, or
//   approx-compile integrate.mlir main.c -o integrate --approx-runtime-table

// The state function: the load itself.
func.func @load_level(%pending: i32) -> i32 {
  return %pending : i32
}

func.func @integrate(%n: index, %pending: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %four = arith.constant 4.0 : f64
  %half = arith.constant 0.5 : f64
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %h = arith.divf %one, %nf : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %cnt = %zero) -> (f64, f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %mid = arith.addf %if, %half : f64
    %x = arith.mulf %mid, %h : f64
    %x2 = arith.mulf %x, %x : f64
    %den = arith.addf %one, %x2 : f64
    %fx = arith.divf %four, %den : f64
    %s = arith.addf %sum, %fx : f64
    %c = arith.addf %cnt, %one : f64
    scf.yield %s, %c : f64, f64
  }
  // mean value of the integrand over the samples taken = the integral
  %pi = arith.divf %r#0, %r#1 : f64
  return %pi : f64
}

"approx.util.annotation.decision_tree"() <{func_name = "integrate",
    transform_type = "loop_perforate", state_indices = array<i64: -1>,
    state_function = "load_level", thresholds = array<i32: 4, 8>,
    thresholds_lowers = array<i32: 1, 5>, thresholds_uppers = array<i32: 4, 64>,
    decisions = array<i32: 0, 4, 16>,
    decision_values = array<i32: 0, 2, 4, 8, 16, 32>}> : () -> ()
