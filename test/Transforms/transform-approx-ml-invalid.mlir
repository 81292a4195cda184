// RUN: approx-opt %s -split-input-file -verify-diagnostics --transform-approx

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{decode_quantize: the knob contains no linalg.matmul or linalg.batch_matmul}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<4xf32> {
    approx.transform decode_quantize <{knob_val = 1 : i32}>
    approx.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<2x4xi32>, %w: tensor<4x2xi32>, %c: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<decode_quantize>]}> -> tensor<2x2xi32> {
    approx.transform decode_quantize <{knob_val = 1 : i32}>
    // expected-error @+1 {{decode_quantize needs f32 tensor operands and the default indexing maps}}
    %m = linalg.matmul ins(%a, %w : tensor<2x4xi32>, tensor<4x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
    approx.yield %m : tensor<2x2xi32>
  }
  return %r : tensor<2x2xi32>
}

// -----

func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{precision_reduce: the knob contains no linalg op on f32 tensors}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<precision_reduce>]}> -> tensor<4xi32> {
    approx.transform precision_reduce <{knob_val = 1 : i32}>
    approx.yield %x : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// A max reduction cannot be rescaled: perforation needs a sum.
func.func @f(%x: tensor<8xf32>, %i: tensor<f32>) -> tensor<f32> {
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> -> tensor<f32> {
    approx.transform loop_perforate <{knob_val = 2 : i32}>
    // expected-error @+1 {{loop_perforate on linalg needs a floating-point sum (the payload yields arith.addf of the accumulator)}}
    %s = linalg.reduce ins(%x : tensor<8xf32>) outs(%i : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %t = arith.maximumf %in, %acc : f32
        linalg.yield %t : f32
      }
    approx.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
