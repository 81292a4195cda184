// Threads in approx-lower-tensor-code (lib/Pipeline/Parallelize.cpp): the
// outermost independent loop of a nest runs on OpenMP threads
// (omp.parallel + omp.wsloop) when it carries enough work: its fewest
// leading dimensions with 128 iterations, never the innermost (a
// sequential loop, vectorizable); loops inside it stay
// sequential (no nested threads), and small loops stay on the calling thread.
// Execution (results identical on 1 and 2 threads):
// test/Execution/threads.mlir.
// RUN: approx-opt %s --approx-lower-tensor-code | FileCheck %s

// A contraction's register-block tiles: the outer tiles on threads (of N
// here, B being the larger operand), the inner tiles and the K loop inside
// them sequential (70 rows: too few for B to be packed).
// CHECK-LABEL: func.func @big_matmul(
// CHECK-NOT: memref<8x128x32xf32>
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NOT: omp.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: omp.
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (vector<14x32xf32>)
// CHECK: omp.yield
// The 70 x 256 copy of the result is too small for threads.
// CHECK-NOT: omp.parallel
// CHECK: return
func.func @big_matmul(%a: tensor<70x128xf32>, %b: tensor<128x256xf32>, %c: tensor<70x256xf32>) -> tensor<70x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<70x128xf32>, tensor<128x256xf32>) outs(%c : tensor<70x256xf32>) -> tensor<70x256xf32>
  return %r : tensor<70x256xf32>
}

// Elementwise, rank 3: the two outer dimensions collapsed on threads (8
// iterations are too few to share among cores: at least 128), the
// innermost a loop of each thread.
// CHECK-LABEL: func.func @big_elementwise(
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[B:.*]], %[[R:.*]]) : index = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) collapse(2) {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%[[B]], %[[R]], %[[J]]] : memref<8x64x256xf32>
// CHECK: return
func.func @big_elementwise(%x: tensor<8x64x256xf32>) -> tensor<8x64x256xf32> {
  %e = tensor.empty() : tensor<8x64x256xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(b,i,j)->(b,i,j)>, affine_map<(b,i,j)->(b,i,j)>], iterator_types = ["parallel","parallel","parallel"]} ins(%x : tensor<8x64x256xf32>) outs(%e : tensor<8x64x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.tanh %v : f32
    linalg.yield %y : f32
  } -> tensor<8x64x256xf32>
  return %t : tensor<8x64x256xf32>
}

// Rank 4 with a long outer dimension (im2col's patches, a batch of images):
// only that one on threads (each thread's iterations by their index, no
// division), the others sequential loops inside.
// CHECK-LABEL: func.func @long_outer(
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[N:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NOT: arith.divui
// CHECK-NEXT: scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%[[N]], %[[H]], %[[W]], %[[C]]] : memref<256x6x6x16xf32>
// CHECK: return
func.func @long_outer(%x: tensor<256x6x6x16xf32>) -> tensor<256x6x6x16xf32> {
  %e = tensor.empty() : tensor<256x6x6x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(n,h,w,c)->(n,h,w,c)>, affine_map<(n,h,w,c)->(n,h,w,c)>], iterator_types = ["parallel","parallel","parallel","parallel"]} ins(%x : tensor<256x6x6x16xf32>) outs(%e : tensor<256x6x6x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.tanh %v : f32
    linalg.yield %y : f32
  } -> tensor<256x6x6x16xf32>
  return %t : tensor<256x6x6x16xf32>
}

// A reduction: its rows on threads, each row's sum on one thread, in order
// (no reduction is split across threads).
// CHECK-LABEL: func.func @row_sums(
// CHECK: omp.loop_nest (%[[ROW:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT: scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK: arith.addf {{.*}} fastmath<reassoc>
// CHECK: return
func.func @row_sums(%x: tensor<512x384xf32>, %init: tensor<512xf32>) -> tensor<512xf32> {
  %t = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i)>], iterator_types = ["parallel","reduction"]} ins(%x : tensor<512x384xf32>) outs(%init : tensor<512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.addf %v, %o : f32
    linalg.yield %y : f32
  } -> tensor<512xf32>
  return %t : tensor<512xf32>
}

// 32 elements: not worth waking threads.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: omp.
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: omp.
// CHECK: return
func.func @small(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i,j)>], iterator_types = ["parallel","parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.tanh %v : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// A body with a stack allocation stays on the calling thread (the alloca
// scope convert-scf-to-openmp would wrap it in cannot always be removed).
// CHECK-LABEL: func.func @stack(
// CHECK-NOT: omp.
// CHECK: memref.alloca
// CHECK-NOT: omp.
// CHECK: return
func.func @stack(%x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %e = tensor.empty() : tensor<256x512xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i,j)>], iterator_types = ["parallel","parallel"]} ins(%x : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %slot = memref.alloca() : memref<f32>
    memref.store %v, %slot[] : memref<f32>
    %y = memref.load %slot[] : memref<f32>
    linalg.yield %y : f32
  } -> tensor<256x512xf32>
  return %t : tensor<256x512xf32>
}
