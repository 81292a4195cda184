// RUN: approx-opt %s -split-input-file --transform-approx | FileCheck %s

// decode_quantize 1: activations per row at run time (absmax over k), the
// constant weights per output channel at compile time, an i8 x i8 -> i32
// matmul, and the dequantization adding the original accumulator.
func.func @dq_const(%a: tensor<2x4xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = approx.knob <{id = 0 : i32, name = "dq", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<2x2xf32> {
    approx.transform decode_quantize <{knob_val = 1 : i32}>
    %w = arith.constant dense<[[1.0, -0.5], [0.25, 0.5], [-1.0, 0.0], [0.5, 0.25]]> : tensor<4x2xf32>
    %m = linalg.matmul ins(%a, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    approx.yield %m : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @dq_const(
// CHECK-SAME:      %[[A:.*]]: tensor<2x4xf32>, %[[C:.*]]: tensor<2x2xf32>)
// The absolute maxima on the bits (sign cleared, integer max), then as f32.
// CHECK:         %[[BITS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[A]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2xi32>)
// CHECK:           arith.bitcast %{{.*}} : f32 to i32
// CHECK:           arith.andi
// CHECK:           arith.maxsi
// CHECK:         %[[AMAX:.*]] = linalg.generic {{.*}} ins(%[[BITS]] : tensor<2xi32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK:           arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[AQ:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[AMAX]] : tensor<2x4xf32>, tensor<2xf32>) outs(%{{.*}} : tensor<2x4xi8>)
// CHECK:           math.roundeven
// CHECK:           arith.fptosi %{{.*}} : f32 to i8
// CHECK:         %[[WQ:.*]] = arith.constant dense<{{\[\[}}127, -127], [32, 127], [-127, 0], [64, 64]]> : tensor<4x2xi8>
// CHECK:         %[[WMAX:.*]] = arith.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<2x2xi32>)
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[AQ]], %[[WQ]] : tensor<2x4xi8>, tensor<4x2xi8>) outs(%[[ACC]] : tensor<2x2xi32>)
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[AMAX]], %[[WMAX]], %[[C]] : tensor<2x2xi32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2xf32>)
// CHECK:           arith.sitofp
// CHECK:         approx.yield %[[R]]

// -----

// decode_quantize 2 (per tensor): 0-d scales; run-time weights quantized
// like the activations. A dynamic value dispatches over the candidates with
// the exact matmul as the default.
func.func @dq_dyn(%a: tensor<2x4xf32>, %w: tensor<4x2xf32>, %c: tensor<2x2xf32>, %k: i32) -> tensor<2x2xf32> {
  %r = approx.knob <{id = 0 : i32, name = "dq", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<2x2xf32> {
    approx.transform decode_quantize %k <{decision_values = array<i32: 0, 2>}>
    %m = linalg.matmul ins(%a, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    approx.yield %m : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @dq_dyn(
// CHECK:         %[[SW:.*]] = scf.index_switch %{{.*}} -> tensor<2x2xf32>
// CHECK-NEXT:    case 2 {
// CHECK:           linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}} : tensor<i32>)
// CHECK:           linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%{{.*}} : tensor<4x2xf32>) outs(%{{.*}} : tensor<i32>)
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xi8>, tensor<4x2xi8>)
// CHECK:         default {
// CHECK-NEXT:      %[[E:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<4x2xf32>)
// CHECK-NEXT:      scf.yield %[[E]]

// -----

// decode_quantize 3 (weights only): the projection by a transposed argument
// is quantized; the product of two activations (attention-style) stays f32,
// also in the case 3 of a dynamic value.
func.func @dq_weights(%x: tensor<2x4xf32>, %wt: tensor<2x4xf32>, %c: tensor<2x2xf32>, %k: i32) -> tensor<2x2xf32> {
  %r = approx.knob <{id = 0 : i32, name = "dq", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<2x2xf32> {
    approx.transform decode_quantize <{knob_val = 3 : i32}>
    %e = tensor.empty() : tensor<4x2xf32>
    %w = linalg.transpose ins(%wt : tensor<2x4xf32>) outs(%e : tensor<4x2xf32>) permutation = [1, 0]
    %p = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    %s = linalg.matmul ins(%p, %p : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    approx.yield %s : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @dq_weights(
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xi8>, tensor<4x2xi8>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NOT:     xi8>

// -----

func.func @dq_weights_dyn(%x: tensor<2x2xf32>, %c: tensor<2x2xf32>, %k: i32) -> tensor<2x2xf32> {
  %r = approx.knob <{id = 0 : i32, name = "dq", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<2x2xf32> {
    approx.transform decode_quantize %k <{decision_values = array<i32: 0, 1, 3>}>
    %s = linalg.matmul ins(%x, %c : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    %y = linalg.matmul ins(%s, %s : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    approx.yield %y : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
// The second product's operands are activations: case 3 keeps it exact.
// CHECK-LABEL: func.func @dq_weights_dyn(
// CHECK:         scf.index_switch
// CHECK:         scf.index_switch
// CHECK-NEXT:    case 1 {
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x2xi8>, tensor<2x2xi8>)
// CHECK:         case 3 {
// CHECK-NEXT:      %[[E3:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT:      scf.yield %[[E3]]

// -----

// precision_reduce 2: the f32 inputs rounded to bf16; the matmul stays a
// named op (its payload widens mixed operands), the accumulator stays f32.
func.func @pr(%a: tensor<2x4xf32>, %w: tensor<4x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = approx.knob <{id = 0 : i32, name = "pr", transform_types = [#approx.kind<precision_reduce>]}> -> tensor<2x2xf32> {
    approx.transform precision_reduce <{knob_val = 2 : i32}>
    %m = linalg.matmul ins(%a, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    approx.yield %m : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @pr(
// CHECK-SAME:      %[[A:.*]]: tensor<2x4xf32>, %[[W:.*]]: tensor<4x2xf32>, %[[C:.*]]: tensor<2x2xf32>)
// CHECK:         %[[AN:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         %[[WN:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<4x2xf32>) outs(%{{.*}} : tensor<4x2xbf16>)
// CHECK:         %[[R:.*]] = linalg.matmul ins(%[[AN]], %[[WN]] : tensor<2x4xbf16>, tensor<4x2xbf16>) outs(%[[C]] : tensor<2x2xf32>)
// CHECK:         approx.yield %[[R]]

// -----

// precision_reduce 1 on other linalg ops: generalized, the f32 inputs read
// in f16 and widened at the top of the payload.
func.func @pr_generic(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = approx.knob <{id = 0 : i32, name = "pg", transform_types = [#approx.kind<precision_reduce>]}> -> tensor<4xf32> {
    approx.transform precision_reduce <{knob_val = 1 : i32}>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<4xf32>
    approx.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @pr_generic(
// CHECK:         %[[XN:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4xf16>)
// CHECK:         linalg.generic {{.*}} ins(%[[XN]] : tensor<4xf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      math.tanh %[[W]]

// -----

// precision_reduce 3: bf16 in the contraction only; the activation after it
// stays f32 (no truncation, no widening in its payload).
func.func @pr_contractions(%a: tensor<2x4xf32>, %w: tensor<4x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = approx.knob <{id = 0 : i32, name = "pc", transform_types = [#approx.kind<precision_reduce>]}> -> tensor<2x2xf32> {
    approx.transform precision_reduce <{knob_val = 3 : i32}>
    %m = linalg.matmul ins(%a, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
    %e = tensor.empty() : tensor<2x2xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<2x2xf32>
    approx.yield %y : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @pr_contractions(
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xbf16>, tensor<4x2xbf16>) outs(%{{.*}} : tensor<2x2xf32>)
// CHECK-NOT:     truncf
// CHECK-NOT:     extf
// CHECK:         linalg.generic {{.*}} ins(%[[M]] : tensor<2x2xf32>) outs(%{{.*}} : tensor<2x2xf32>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      math.tanh

// -----

// loop_perforate on a sum reduction: every k-th element (a strided slice of
// ceil(n/k) elements), summed into zeros, rescaled by n / ceil(n/k) and
// added to the original accumulator.
func.func @sum(%x: tensor<100xf32>) -> tensor<f32> {
  %r = approx.knob <{id = 0 : i32, name = "s", transform_types = [#approx.kind<loop_perforate>]}> -> tensor<f32> {
    approx.transform loop_perforate <{knob_val = 3 : i32}>
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.reduce ins(%x : tensor<100xf32>) outs(%i : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %t = arith.addf %in, %acc : f32
        linalg.yield %t : f32
      }
    approx.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func @sum(
// CHECK-SAME:      %[[X:.*]]: tensor<100xf32>)
// CHECK:         %[[INIT:.*]] = linalg.fill
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<100xf32>
// CHECK:         %[[K:.*]] = arith.index_cast
// CHECK:         %[[CNT:.*]] = arith.ceildivsi %[[N]], %[[K]]
// CHECK:         %[[SL:.*]] = tensor.extract_slice %[[X]][0] [%[[CNT]]] [%[[K]]]
// CHECK:         %[[Z:.*]] = linalg.fill
// CHECK:         %[[PART:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[SL]] : tensor<?xf32>) outs(%[[Z]] : tensor<f32>)
// CHECK:         %[[SCALE:.*]] = arith.divf
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[PART]], %[[INIT]] : tensor<f32>, tensor<f32>)
// CHECK:           arith.mulf %{{.*}}, %[[SCALE]]
// CHECK:         approx.yield %[[R]]
