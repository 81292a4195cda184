// transform.approx.* applied by upstream's interpreter: each kind rewrites
// its payload in place exactly as the annotation's pattern does (the
// execution test is test/Execution/transform-script.mlir).
// RUN: approx-opt %s -split-input-file --transform-interpreter | FileCheck %s --check-prefix=UPSTREAM
// apply-transform-script does the same and removes the script; folded:
// RUN: approx-opt %s -split-input-file --apply-transform-script -canonicalize | FileCheck %s
// UPSTREAM-NOT: approx.knob
// UPSTREAM-LABEL: func.func @sum(
// UPSTREAM: arith.constant 2 : i32
// UPSTREAM: arith.muli %{{.*}}, %{{.*}} : i128
// UPSTREAM: scf.for
// UPSTREAM: transform.named_sequence @__transform_main
// UPSTREAM-LABEL: func.func @h(
// UPSTREAM: call @approx_g_2
// UPSTREAM-NOT: approx.knob
// The printed script parses back.
// RUN: approx-opt %s -split-input-file | approx-opt -split-input-file | FileCheck %s --check-prefix=ROUND

// ROUND: transform.approx.loop_perforate %{{.*}} by 2 : !transform.any_op
// ROUND: transform.approx.loop_perforate %{{.*}} by %{{.*}} : !transform.any_op, !transform.param<i64>

module attributes {transform.with_named_sequence} {
  func.func @sum(%n: index, %x: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    return %l : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_perforate %loop by 2 : !transform.any_op
    transform.yield
  }
}
// CHECK-NOT: transform.
// CHECK-LABEL: func.func @sum(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C2]]

// -----

// The value from transform.tune.knob (its `selected` option).
module attributes {transform.with_named_sequence} {
  func.func @sum_knob(%n: index, %x: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    return %l : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"perf"> = 4 from options = [0, 2, 4] -> !transform.param<i64>
    transform.approx.loop_perforate %loop by %k : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
// CHECK-LABEL: func.func @sum_knob(
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4]]

// -----

// 0 is exact: the payload is left as it is.
module attributes {transform.with_named_sequence} {
  func.func @sum_exact(%n: index, %x: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    return %l : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_perforate %loop by 0 : !transform.any_op
    transform.yield
  }
}
// CHECK-LABEL: func.func @sum_exact(
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %arg0 step %[[C1]]

// -----

module attributes {transform.with_named_sequence} {
  func.func @truncate(%n: index, %x: i32) -> (i32, i32, i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    } {tag = "end"}
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.muli %a, %x : i32
      scf.yield %b : i32
    } {tag = "start"}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.subi %a, %x : i32
      scf.yield %b : i32
    } {tag = "skip"}
    return %e, %s, %r : i32, i32, i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %end = transform.structured.match attributes{tag = "end"} in %root : (!transform.any_op) -> !transform.any_op
    %start = transform.structured.match attributes{tag = "start"} in %root : (!transform.any_op) -> !transform.any_op
    %skip = transform.structured.match attributes{tag = "skip"} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_truncate_end %end by 4 : !transform.any_op
    transform.approx.loop_truncate_start %start by 4 : !transform.any_op
    transform.approx.loop_random_skip %skip by 3 : !transform.any_op
    transform.yield
  }
}
// The first ceil(n/4) iterations; the last ceil(n/4); each with
// probability 1/3 (a hash of the index).
// CHECK-LABEL: func.func @truncate(
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i128
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i64
// CHECK:         %[[Q:.*]] = arith.ceildivsi %{{.*}}, %[[C4]] : i128
// CHECK:         %[[E:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[E]] step
// CHECK:         } {tag = "end"}
// CHECK:         %[[Q2:.*]] = arith.ceildivsi %{{.*}}, %[[C4]] : i128
// CHECK:         arith.subi %{{.*}}, %[[Q2]] : i128
// CHECK:         %[[S:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         scf.for %{{.*}} = %[[S]] to %arg0
// CHECK:         } {tag = "start"}
// CHECK:         scf.for
// CHECK:           arith.remui %{{.*}}, %[[C3]] : i64
// CHECK:           scf.if
// CHECK:         } {tag = "skip"}

// -----

module attributes {transform.with_named_sequence} {
  func.func private @approx_g_2(i32) -> i32
  func.func @g(%x: i32) -> i32 {
    %y = arith.muli %x, %x : i32
    return %y : i32
  }
  func.func @h(%x: i32) -> i32 {
    %a = func.call @g(%x) : (i32) -> i32
    %b = func.call @g(%a) : (i32) -> i32
    return %b : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %calls = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.func_substitute %calls by 2 : !transform.any_op
    transform.yield
  }
}
// CHECK-LABEL: func.func @h(
// CHECK:         %[[A:.*]] = call @approx_g_2(%arg0)
// CHECK-NEXT:    call @approx_g_2(%[[A]])

// -----

module attributes {transform.with_named_sequence} {
  func.func @t_if(%c: i1, %x: i32) -> i32 {
    %v = scf.if %c -> i32 {
      scf.yield %x : i32
    } else {
      %y = arith.addi %x, %x : i32
      scf.yield %y : i32
    }
    return %v : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %if = transform.structured.match ops{["scf.if"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.task_skipping %if by 2 : !transform.any_op
    transform.yield
  }
}
// Branch 1 (else) forced.
// CHECK-LABEL: func.func @t_if(
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    return %[[R]]

// -----

module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<2x4xf32>, %b: tensor<4x2xf32>, %c: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
    %q = linalg.matmul {tag = "q"} ins(%a, %b : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    %p = linalg.matmul {tag = "p"} ins(%a, %b : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    return %q, %p : tensor<2x2xf32>, tensor<2x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match attributes{tag = "q"} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.match attributes{tag = "p"} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.decode_quantize %q by 1 : !transform.any_op
    transform.approx.precision_reduce %p by 2 : !transform.any_op
    transform.yield
  }
}
// CHECK-LABEL: func.func @mm(
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xi8>, tensor<4x2xi8>) outs(%{{.*}} : tensor<2x2xi32>)
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xbf16>, tensor<4x2xbf16>) outs(%arg2 : tensor<2x2xf32>)

// -----

// A handle to no op: nothing happens. Two loops in one handle: each one.
module attributes {transform.with_named_sequence} {
  func.func @two(%n: index, %x: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    %m = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.muli %a, %x : i32
      scf.yield %b : i32
    }
    return %l, %m : i32, i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %none = transform.structured.match ops{["scf.while"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_truncate_end %none by 2 : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_truncate_end %loops by 2 : !transform.any_op
    transform.yield
  }
}
// CHECK-LABEL: func.func @two(
// CHECK:         arith.ceildivsi
// CHECK:         scf.for
// CHECK:         arith.ceildivsi
// CHECK:         scf.for

// -----

// Applied twice to the same loop (two matches): the perforations compose.
module attributes {transform.with_named_sequence} {
  func.func @twice(%n: index, %x: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    return %l : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %first = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_perforate %first by 2 : !transform.any_op
    %again = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.approx.loop_perforate %again by 2 : !transform.any_op
    transform.yield
  }
}
// CHECK-LABEL: func.func @twice(
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %arg0 step %[[C4]]
