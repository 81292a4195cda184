// approx-polynomial-erf: erf and erfc (GELU) as polynomials, for backends
// that cannot lower math.erfc (IREE); compile_to_iree runs it.
// RUN: approx-opt --approx-polynomial-erf %s | FileCheck %s

// CHECK-LABEL: func.func @gelu
// CHECK-NOT: math.erf
// CHECK: math.exp
// CHECK-NOT: math.erf
func.func @gelu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant -0.707106769 : f32
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %in, %c : f32
    %v = math.erfc %m : f32
    %w = math.erf %in : f32
    %s = arith.addf %v, %w : f32
    %g = arith.mulf %s, %h : f32
    linalg.yield %g : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
