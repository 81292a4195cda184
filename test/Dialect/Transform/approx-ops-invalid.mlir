// The transform.approx.* ops' diagnostics: a payload op the kind does not
// take, a value out of the kind's range, a param that is not one integer,
// a rewrite the kind's pattern refuses.
// RUN: approx-opt %s -split-input-file --transform-interpreter -verify-diagnostics

module attributes {transform.with_named_sequence} {
  func.func private @g(i32) -> i32
  func.func @f(%x: i32) -> i32 {
    // expected-note @+1 {{payload op}}
    %y = func.call @g(%x) : (i32) -> i32
    return %y : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %call = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{loop_perforate applies to an scf.for or scf.while loop, or a linalg reduction, not 'func.call'}}
    transform.approx.loop_perforate %call by 2 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{decode_quantize has no knob value 4 (0 = exact, 1 = int8 per channel, 2 = int8 per tensor, 3 = int8 per channel on weights only)}}
    transform.approx.decode_quantize %h by 4 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{knob_val must be >= 0, got -1}}
    transform.approx.loop_truncate_end %h by -1 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{knob value 4294967296 does not fit in 32 bits}}
    transform.approx.loop_perforate %h by 4294967296 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @f(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant "two" -> !transform.any_param
    // expected-error @+1 {{the knob value param must hold one integer, it holds "two"}}
    transform.approx.loop_perforate %loop by %p : !transform.any_op, !transform.any_param
    transform.yield
  }
}

// -----

// A tuned value out of range is caught when the script runs.
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<2x4xf32>, %b: tensor<4x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %q = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    return %q : tensor<2x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"dq"> = 5 from options = [0, 1, 5] -> !transform.param<i64>
    // expected-error @+1 {{precision_reduce has no knob value 5 (0 = exact, 1 = f16, 2 = bf16, 3 = bf16 in contractions only)}}
    transform.approx.precision_reduce %mm by %k : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

// The kind's own checks run too: func_substitute needs the variant.
module attributes {transform.with_named_sequence} {
  func.func @g(%x: i32) -> i32 {
    return %x : i32
  }
  func.func @h(%x: i32) -> i32 {
    // expected-error @+2 {{func_substitute variant 'approx_g_3' is not defined}}
    // expected-note @+1 {{payload op}}
    %a = func.call @g(%x) : (i32) -> i32
    return %a : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %calls = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not apply func_substitute}}
    transform.approx.func_substitute %calls by 3 : !transform.any_op
    transform.yield
  }
}
