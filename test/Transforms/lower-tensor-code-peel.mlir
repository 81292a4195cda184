// Skinny and odd f32 matmuls in approx-lower-tensor-code: rows past the last
// whole block of 14 and columns past the last whole block of 32 are peeled
// into matmuls of their own, each register-blocked by what is left (columns:
// a block of 16, then the rest), instead of falling to scalar loops. Execution against XLA: test/ML/jax-ops.test
// (the "skinny" and "matmul" cases) and test/ML/zoo.test.
// RUN: approx-opt %s --approx-lower-tensor-code | FileCheck %s

// A 10-class head: 14 x 10 blocks, and the last 8 rows; one block of
// columns, so B is not packed.
// CHECK-LABEL: func.func @head(
// CHECK-NOT: memref.alloc
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (vector<14x10xf32>)
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (vector<8x10xf32>)
// CHECK-NOT: vector<{{[0-9]+}}x32xf32>
// CHECK: return
func.func @head(%a: tensor<64x512xf32>, %b: tensor<512x10xf32>, %c: tensor<64x10xf32>) -> tensor<64x10xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x512xf32>, tensor<512x10xf32>) outs(%c : tensor<64x10xf32>) -> tensor<64x10xf32>
  return %r : tensor<64x10xf32>
}

// 20 x 52: six pieces, rows 14 + 6 by columns 32 + 16 + 4.
// CHECK-LABEL: func.func @odd(
// CHECK: -> (vector<14x32xf32>)
// CHECK: -> (vector<14x16xf32>)
// CHECK: -> (vector<14x4xf32>)
// CHECK: -> (vector<6x32xf32>)
// CHECK: -> (vector<6x16xf32>)
// CHECK: -> (vector<6x4xf32>)
// CHECK: return
func.func @odd(%a: tensor<20x7xf32>, %b: tensor<7x52xf32>, %c: tensor<20x52xf32>) -> tensor<20x52xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<20x7xf32>, tensor<7x52xf32>) outs(%c : tensor<20x52xf32>) -> tensor<20x52xf32>
  return %r : tensor<20x52xf32>
}

// B packed by blocks of 32 columns (P[j, k, l] = B[k, 32 j + l]) when more
// than one block of columns and at least 128 rows use it; each block reads
// its columns from P[j].
// CHECK-LABEL: func.func @packed(
// CHECK: %[[P:.*]] = memref.alloc() {{.*}} : memref<2x64x32xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xf32>
// CHECK: memref.store %{{.*}}, %[[P]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x64x32xf32>
// CHECK: %[[J:.*]] = arith.divui %{{.*}}, %c32
// CHECK: memref.reinterpret_cast %[[P]] to offset: [%{{.*}}], sizes: [64, 32], strides: [32, 1]
// CHECK: -> (vector<14x32xf32>)
// CHECK: return
func.func @packed(%a: tensor<140x64xf32>, %b: tensor<64x64xf32>, %c: tensor<140x64xf32>) -> tensor<140x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<140x64xf32>, tensor<64x64xf32>) outs(%c : tensor<140x64xf32>) -> tensor<140x64xf32>
  return %r : tensor<140x64xf32>
}

// A batch matmul with one row per batch (a GEMV): 1 x 16 blocks.
// CHECK-LABEL: func.func @gemv(
// CHECK: -> (vector<1x16xf32>)
// CHECK: return
func.func @gemv(%a: tensor<4x1x64xf32>, %b: tensor<4x64x16xf32>, %c: tensor<4x1x16xf32>) -> tensor<4x1x16xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x1x64xf32>, tensor<4x64x16xf32>) outs(%c : tensor<4x1x16xf32>) -> tensor<4x1x16xf32>
  return %r : tensor<4x1x16xf32>
}

// Not f32: the loops of before (k before j), no register blocks.
// CHECK-LABEL: func.func @ints(
// CHECK-NOT: vector<
// CHECK: return
func.func @ints(%a: tensor<13x7xi32>, %b: tensor<7x40xi32>, %c: tensor<13x40xi32>) -> tensor<13x40xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<13x7xi32>, tensor<7x40xi32>) outs(%c : tensor<13x40xi32>) -> tensor<13x40xi32>
  return %r : tensor<13x40xi32>
}

// Two contractions sharing one fill of C (CSE merges identical fills, as an
// unrolled RNN's): each gets its own, so that each computes in place in its
// result's buffer; with one shared buffer, bufferization copied the 28 whole
// rows of a peeled matmul out and back.
// CHECK-LABEL: func.func @shared_fill(
// CHECK-NOT: memref<28x32xf32>
// CHECK-COUNT-2: memref.alloc() {{.*}} : memref<30x32xf32>
// CHECK-NOT: memref<28x32xf32>
// CHECK: return
func.func @shared_fill(%a: tensor<30x8xf32>, %b: tensor<8x32xf32>, %a2: tensor<30x8xf32>) -> (tensor<30x32xf32>, tensor<30x32xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<30x32xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<30x32xf32>) -> tensor<30x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<30x8xf32>, tensor<8x32xf32>) outs(%c : tensor<30x32xf32>) -> tensor<30x32xf32>
  %r2 = linalg.matmul ins(%a2, %b : tensor<30x8xf32>, tensor<8x32xf32>) outs(%c : tensor<30x32xf32>) -> tensor<30x32xf32>
  return %r, %r2 : tensor<30x32xf32>, tensor<30x32xf32>
}

// A B that several matmuls multiply by (an unrolled RNN's weight): packed
// when their rows together reach 128 (here 70 + 70), once, before the
// first of them.
// CHECK-LABEL: func.func @shared_b(
// CHECK: memref.alloc() {{.*}} : memref<2x64x32xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<2x64x32xf32>
// CHECK: -> (vector<14x32xf32>)
// CHECK-NOT: memref.alloc() {{.*}} : memref<2x64x32xf32>
// CHECK: -> (vector<14x32xf32>)
// CHECK-NOT: memref.alloc() {{.*}} : memref<2x64x32xf32>
// CHECK: return
// One matmul of 70 rows alone: not packed.
// CHECK-LABEL: func.func @unshared_b(
// CHECK-NOT: memref<2x64x32xf32>
// CHECK: return
func.func @shared_b(%a: tensor<70x64xf32>, %b: tensor<64x64xf32>, %a2: tensor<70x64xf32>) -> (tensor<70x64xf32>, tensor<70x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<70x64xf32>) -> tensor<70x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<70x64xf32>, tensor<64x64xf32>) outs(%c : tensor<70x64xf32>) -> tensor<70x64xf32>
  %r2 = linalg.matmul ins(%a2, %b : tensor<70x64xf32>, tensor<64x64xf32>) outs(%c : tensor<70x64xf32>) -> tensor<70x64xf32>
  return %r, %r2 : tensor<70x64xf32>, tensor<70x64xf32>
}
func.func @unshared_b(%a: tensor<70x64xf32>, %b: tensor<64x64xf32>, %c: tensor<70x64xf32>) -> tensor<70x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<70x64xf32>, tensor<64x64xf32>) outs(%c : tensor<70x64xf32>) -> tensor<70x64xf32>
  return %r : tensor<70x64xf32>
}

// C a fill of zeros (the usual init): the blocks' accumulators start at
// zero, and C is neither filled nor read; the peeled rows too.
// CHECK-LABEL: func.func @zero_init(
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<14x32xf32>
// CHECK-DAG: %[[Z2:.*]] = arith.constant dense<0.000000e+00> : vector<2x32xf32>
// CHECK: memref.alloc() {{.*}} : memref<30x64xf32>
// CHECK-NOT: memref.store
// CHECK-NOT: vector.transfer_read %{{.*}} : memref<14x32xf32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]]) -> (vector<14x32xf32>)
// CHECK-NOT: vector.transfer_read %{{.*}} : memref<2x32xf32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z2]]) -> (vector<2x32xf32>)
// CHECK: return
func.func @zero_init(%a: tensor<30x16xf32>, %b: tensor<16x64xf32>) -> tensor<30x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<30x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<30x64xf32>) -> tensor<30x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<30x16xf32>, tensor<16x64xf32>) outs(%c : tensor<30x64xf32>) -> tensor<30x64xf32>
  return %r : tensor<30x64xf32>
}
