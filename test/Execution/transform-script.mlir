// A transform script's approximation, executed: in place (upstream's
// interpreter, then any lowering) and through approx-compile, whose builds
// set them (a baked build through the script's tune.knob, the exact build,
// a runtime table set by APPROX_CONFIG). Each result is predicted
// and the QoS against the exact mean checked with a bound.
//
// RUN: approx-compile %s %S/Inputs/transform_script.c -o %t.baked
// RUN: %t.baked 4 | FileCheck %s
// RUN: approx-compile %s %S/Inputs/transform_script.c -o %t.exact --approx-exact
// RUN: %t.exact 0 | FileCheck %s
// RUN: approx-compile %s %S/Inputs/transform_script.c -o %t.runtime --approx-runtime-table
// RUN: %t.runtime 4 | FileCheck %s
// RUN: echo '{"mean_loop_perforate_0_knob_val": 2}' > %t.json
// RUN: env APPROX_CONFIG=%t.json %t.runtime 2 | FileCheck %s
// A baked build is set through the script's tune.knob.
// RUN: echo '{"mean_stride": 2}' > %t.baked.json
// RUN: approx-compile %s %S/Inputs/transform_script.c -o %t.config --approx-config=%t.baked.json
// RUN: %t.config 2 | FileCheck %s
// RUN: echo '{"mean_stride": 3}' > %t.bad.json
// RUN: not approx-compile %s %S/Inputs/transform_script.c -o %t.bad --approx-config=%t.bad.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: bad.json:1:2: error: 'mean_stride' = 3 is not one of its options {0, 2, 4}
// In place: the interpreter leaves standard MLIR, which compiles as it is.
// RUN: approx-opt %s --apply-transform-script -o %t.inplace.mlir
// RUN: not grep -q "approx\.\|transform\." %t.inplace.mlir
// RUN: approx-compile %t.inplace.mlir %S/Inputs/transform_script.c -o %t.inplace
// RUN: %t.inplace 4 | FileCheck %s

// CHECK: transform_script: all {{[0-9]+}} checks passed

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
    }
    %mean = arith.divf %r#0, %r#1 : f64
    return %mean : f64
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"mean_stride"> = 4 from options = [0, 2, 4] -> !transform.param<i64>
    transform.approx.loop_perforate %loop by %k : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
