// The ML transforms on linalg code, driven by a state through decision
// trees: decode_quantize (int8 matmuls with constant and run-time weights),
// precision_reduce (f16 / bf16 inputs; bf16 in contractions only under the
// shifted configuration), loop_perforate of a sum reduction
// (sampled and rescaled) and func_substitute skipping a residual block. The
// driver computes the exact results in C and checks each approximation with
// the L2 QoS metric and a bound, and that exact configurations are exact.
// Baked and runtime-table builds of one configuration agree.
//
// RUN: approx-compile %s %S/Inputs/ml_transforms.c -o %t.default
// RUN: %t.default | FileCheck %s
// int8 and bf16 matmuls as loops (the default on a host with AVX-512 VNNI and
// BF16 is their dot products: the same integers bit for bit, f32 sums to
// rounding):
// RUN: approx-compile %s %S/Inputs/ml_transforms.c -o %t.loops --approx-dot-product=loops
// RUN: %t.loops | FileCheck %s
// RUN: approx-compile %s %S/Inputs/ml_transforms.c -o %t.exact --approx-exact
// RUN: %t.exact exact | FileCheck %s
// RUN: approx-compile %s %S/Inputs/ml_transforms.c -o %t.baked --approx-config=%S/Inputs/ml_transforms.json
// RUN: %t.baked shifted > %t.baked.out
// RUN: FileCheck %s < %t.baked.out
// RUN: approx-compile %s %S/Inputs/ml_transforms.c -o %t.runtime --approx-runtime-table
// RUN: env APPROX_CONFIG=%S/Inputs/ml_transforms.json %t.runtime shifted > %t.runtime.out
// RUN: diff %t.baked.out %t.runtime.out

// CHECK: ml_transforms: all {{[0-9]+}} checks passed

func.func @approx_state_identity(%s: i32) -> i32 {
  return %s : i32
}

// A[32x64] x W[64x32] + C, W an argument: run-time quantization of both.
func.func @mm(%a: tensor<32x64xf32>, %w: tensor<64x32xf32>, %c: tensor<32x32xf32>, %state: i32) -> tensor<32x32xf32> attributes {llvm.emit_c_interface} {
  %r = linalg.matmul ins(%a, %w : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// A[4x16] x W[16x8] with W a constant: quantized at compile time.
func.func @mm_const(%a: tensor<4x16xf32>, %state: i32) -> tensor<4x8xf32> attributes {llvm.emit_c_interface} {
  %w = arith.constant dense<[[-0.352, -0.698, 0.302, -0.855, 0.072, -0.269, -0.884, 0.015], [-0.925, -0.133, -0.860, -0.819, -0.151, 0.654, -0.752, -0.554], [0.255, 0.895, 0.154, -0.207, 0.953, -0.907, 0.717, -0.421], [-0.711, -0.764, -0.383, 0.632, -0.639, 0.163, 0.278, -0.255], [0.095, -0.874, -0.881, -0.588, 0.361, -0.145, -0.372, 0.171], [-0.094, -0.400, 0.589, 0.398, -0.512, 0.149, 0.050, 0.750], [0.459, -0.424, 0.960, -0.764, -0.164, 0.514, -0.696, -0.022], [-0.922, 0.336, 0.529, 0.146, 0.751, -0.373, 0.391, 0.189], [0.160, -0.088, 0.680, 0.889, -0.052, 0.328, -0.879, 0.403], [0.294, 0.986, 0.644, -0.431, -0.228, 0.337, -0.955, -0.077], [-0.664, -0.766, -0.882, 0.536, -0.741, -0.505, -0.218, 0.743], [-0.839, -0.102, 0.099, 0.767, 0.639, 0.728, -0.443, -0.169], [-0.282, 0.768, 0.915, -0.698, -0.648, -0.536, -0.533, -0.030], [0.178, -0.475, -0.992, -0.162, -0.261, 0.133, 0.906, 0.381], [0.031, 0.235, 0.352, -0.892, 0.799, 0.560, 0.749, 0.596], [-0.215, -0.202, -0.793, 0.269, -0.876, -0.865, -0.582, -0.675]]> : tensor<16x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Batched: B[2x8x32] x W[2x32x32] + C.
func.func @bmm(%a: tensor<2x8x32xf32>, %w: tensor<2x32x32xf32>, %c: tensor<2x8x32xf32>, %state: i32) -> tensor<2x8x32xf32> attributes {llvm.emit_c_interface} {
  %r = linalg.batch_matmul ins(%a, %w : tensor<2x8x32xf32>, tensor<2x32x32xf32>) outs(%c : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// The same product as mm, under precision_reduce.
func.func @mm_narrow(%a: tensor<32x64xf32>, %w: tensor<64x32xf32>, %c: tensor<32x32xf32>, %state: i32) -> tensor<32x32xf32> attributes {llvm.emit_c_interface} {
  %r = linalg.matmul ins(%a, %w : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// sum(x) over 1000 elements, as JAX's jnp.sum lowers it.
func.func @total(%x: tensor<1000xf32>, %state: i32) -> tensor<f32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<1000xf32>) outs(%i : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}

// A residual block x + relu(x), and its skipped variant x.
func.func @block(%x: tensor<64xf32>, %state: i32) -> tensor<64xf32> attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %relu = arith.maximumf %in, %z : f32
    %y = arith.addf %in, %relu : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func @approx_block_1(%x: tensor<64xf32>, %state: i32) -> tensor<64xf32> {
  return %x : tensor<64xf32>
}

"approx.util.annotation.decision_tree"() <{func_name = "mm",
    transform_type = "decode_quantize", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 0>, thresholds_uppers = array<i32: 30, 30>,
    decisions = array<i32: 0, 1, 2>, decision_values = array<i32: 0, 1, 2>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "mm_const",
    transform_type = "decode_quantize", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 0>, thresholds_uppers = array<i32: 30, 30>,
    decisions = array<i32: 0, 1, 2>, decision_values = array<i32: 0, 1, 2>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "bmm",
    transform_type = "decode_quantize", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 0>, thresholds_uppers = array<i32: 30, 30>,
    decisions = array<i32: 0, 1, 2>, decision_values = array<i32: 0, 1, 2>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "mm_narrow",
    transform_type = "precision_reduce", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 0>, thresholds_uppers = array<i32: 30, 30>,
    decisions = array<i32: 0, 1, 2>, decision_values = array<i32: 0, 1, 2, 3>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "total",
    transform_type = "loop_perforate", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 0>, thresholds_uppers = array<i32: 30, 30>,
    decisions = array<i32: 0, 2, 7>, decision_values = array<i32: 0, 2, 4, 7, 8>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "block",
    transform_type = "func_substitute", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 30>,
    decisions = array<i32: 0, 1>, decision_values = array<i32: 0, 1>}> : () -> ()
