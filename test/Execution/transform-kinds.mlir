// Every transform.approx.* kind executed (issue 42): a transform script
// applies each to its own function, and the driver predicts every result
// independently (the loop kinds' iteration sets, the substituted call, the
// forced branch) or, for the ML kinds, checks the QoS against exact C
// matmuls with a bound. The exact build (--approx-exact: the script's
// approximations become knobs set to 0) must give the exact results.
//
// RUN: approx-compile %s %S/Inputs/transform_kinds.c -o %t.approx
// RUN: %t.approx approx | FileCheck %s
// RUN: approx-compile %s %S/Inputs/transform_kinds.c -o %t.exact --approx-exact
// RUN: %t.exact exact | FileCheck %s
// RUN: approx-compile %s %S/Inputs/transform_kinds.c -o %t.table --approx-runtime-table
// RUN: %t.table approx | FileCheck %s

// CHECK: transform_kinds: all {{[0-9]+}} checks passed

module attributes {transform.with_named_sequence} {
  // mean of (i * 7) mod 13 over the iterations that run; each function's
  // loop is approximated by another kind
  func.func @trunc_end(%n: index) -> f64 {
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
    } {kind = "end"}
    %mean = arith.divf %r#0, %r#1 : f64
    return %mean : f64
  }
  func.func @trunc_start(%n: index) -> f64 {
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
    } {kind = "start"}
    %mean = arith.divf %r#0, %r#1 : f64
    return %mean : f64
  }
  func.func @skip(%n: index) -> f64 {
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
    } {kind = "skip"}
    %mean = arith.divf %r#0, %r#1 : f64
    return %mean : f64
  }

  // func_substitute: @square's call becomes @approx_square_1's
  func.func @square(%x: f64) -> f64 {
    %y = arith.mulf %x, %x : f64
    return %y : f64
  }
  func.func @approx_square_1(%x: f64) -> f64 {
    %a = math.absf %x : f64
    %y = arith.mulf %x, %a : f64
    return %y : f64
  }
  func.func @subst(%x: f64) -> f64 {
    %y = func.call @square(%x) {kind = "call"} : (f64) -> f64
    return %y : f64
  }

  // task_skipping 2: branch 1 (else) always
  func.func @task(%c: i1, %x: f64) -> f64 {
    %r = scf.if %c -> f64 {
      %two = arith.constant 2.0 : f64
      %y = arith.mulf %x, %two : f64
      scf.yield %y : f64
    } else {
      %three = arith.constant 3.0 : f64
      %y = arith.mulf %x, %three : f64
      scf.yield %y : f64
    } {kind = "task"}
    return %r : f64
  }

  // the ML kinds: int8 per channel, bf16 inputs
  func.func @mm_int8(%a: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32>
      attributes {llvm.emit_c_interface} {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x32xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    %r = linalg.matmul {kind = "int8"} ins(%a, %w : tensor<16x64xf32>, tensor<64x32xf32>)
                       outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
    return %r : tensor<16x32xf32>
  }
  func.func @mm_bf16(%a: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32>
      attributes {llvm.emit_c_interface} {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x32xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    %r = linalg.matmul {kind = "bf16"} ins(%a, %w : tensor<16x64xf32>, tensor<64x32xf32>)
                       outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
    return %r : tensor<16x32xf32>
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %end = transform.structured.match attributes{kind = "end"} in %root : (!transform.any_op) -> !transform.any_op
    %start = transform.structured.match attributes{kind = "start"} in %root : (!transform.any_op) -> !transform.any_op
    %skip = transform.structured.match attributes{kind = "skip"} in %root : (!transform.any_op) -> !transform.any_op
    %call = transform.structured.match attributes{kind = "call"} in %root : (!transform.any_op) -> !transform.any_op
    %task = transform.structured.match attributes{kind = "task"} in %root : (!transform.any_op) -> !transform.any_op
    %int8 = transform.structured.match attributes{kind = "int8"} in %root : (!transform.any_op) -> !transform.any_op
    %bf16 = transform.structured.match attributes{kind = "bf16"} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_truncate_end %end by 4 : !transform.any_op
    transform.approx.loop_truncate_start %start by 4 : !transform.any_op
    transform.approx.loop_random_skip %skip by 3 : !transform.any_op
    transform.approx.func_substitute %call by 1 : !transform.any_op
    transform.approx.task_skipping %task by 2 : !transform.any_op
    transform.approx.decode_quantize %int8 by 1 : !transform.any_op
    transform.approx.precision_reduce %bf16 by 2 : !transform.any_op
    transform.yield
  }
}
