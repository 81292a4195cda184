// MLIR 22's linalg.generic parser reads every element of a custom-form
// iterator_types as a string attribute unchecked, so anything else read
// memory out of bounds (fuzz/pipeline_fuzz found it: a multi-terabyte
// allocation). Every tool checks the text first and gives a located error.
// RUN: not approx-opt %s 2>&1 | FileCheck %s
// RUN: not approx-tune --space %s --list 2>&1 | FileCheck %s
// Strings, and the generic form's typed attributes, are fine:
// RUN: grep -v BAD %s | approx-opt - | FileCheck %s --check-prefix=OK

#id = affine_map<(d0) -> (d0)>

// CHECK: linalg-iterator-types.mlir:[[@LINE+2]]:70: error: 'linalg.generic' iterator_types takes strings ("parallel", "reduction") in the custom form
func.func @bad(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> { // BAD
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = [0]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) { // BAD
  ^bb0(%a: f32, %b: f32): // BAD
    linalg.yield %a : f32 // BAD
  } -> tensor<4xf32> // BAD
  return %y : tensor<4xf32> // BAD
} // BAD

// OK-LABEL: func.func @good
func.func @good(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// OK-LABEL: func.func @generic_form
func.func @generic_form(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  %y = "linalg.generic"(%x, %e) <{indexing_maps = [#id, #id], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
