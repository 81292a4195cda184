// Tensor code on OpenMP threads (lib/Pipeline/Parallelize.cpp): an f32 layer
// (register-blocked matmul, bias and tanh fused), row sums (a reduction per
// row) and an int8 matmul (the dot-product blocks; loops where the host has
// no AVX-512 VNNI) agree with C references, and give the same bits on one
// and on two threads. Programs link LLVM's OpenMP runtime only when their
// code calls it. IR shape: test/Transforms/lower-tensor-code-threads.mlir.
//
// RUN: approx-compile %s %S/Inputs/threads.c -o %t
// RUN: env OMP_NUM_THREADS=1 %t > %t.1
// RUN: env OMP_NUM_THREADS=2 %t > %t.2
// RUN: FileCheck %s < %t.2
// RUN: diff %t.1 %t.2
// RUN: readelf -d %t | FileCheck %s --check-prefix=LINK
// RUN: echo 'func.func @f(%%x: i32) -> i32 { return %%x : i32 }' > %t.scalar.mlir
// RUN: approx-compile %t.scalar.mlir -shared -o %t.scalar.so
// RUN: readelf -d %t.scalar.so | FileCheck %s --check-prefix=SCALAR

// CHECK: layer digest {{[0-9a-f]+}}
// CHECK: row_sums digest {{[0-9a-f]+}}
// CHECK: imm digest {{[0-9a-f]+}}
// CHECK: threads: all {{[0-9]+}} checks passed
// LINK: NEEDED{{.*}}libomp.so
// SCALAR-NOT: libomp

// tanh(X[64x128] W[128x256] + b)
func.func @layer(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x128xf32>, tensor<128x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(j)>, affine_map<(i,j)->(i,j)>], iterator_types = ["parallel","parallel"]} ins(%m, %b : tensor<64x256xf32>, tensor<256xf32>) outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %y = math.tanh %s : f32
    linalg.yield %y : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// sum_j X[i, j] for 512 rows of 384
func.func @row_sums(%x: tensor<512x384xf32>) -> tensor<512xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i)>], iterator_types = ["parallel","reduction"]} ins(%x : tensor<512x384xf32>) outs(%init : tensor<512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.addf %v, %o : f32
    linalg.yield %y : f32
  } -> tensor<512xf32>
  return %t : tensor<512xf32>
}

// A[64x128] B[128x256] in int8, exact in i32
func.func @imm(%a: tensor<64x128xi8>, %b: tensor<128x256xi8>) -> tensor<64x256xi32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x256xi32>
  %c = linalg.fill ins(%z : i32) outs(%e : tensor<64x256xi32>) -> tensor<64x256xi32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xi8>, tensor<128x256xi8>) outs(%c : tensor<64x256xi32>) -> tensor<64x256xi32>
  return %r : tensor<64x256xi32>
}
