// int8 and bf16 matmuls (decode_quantize's, precision_reduce's) in
// approx-lower-tensor-code: with dot-product=avx512, register blocks of AVX-512
// VNNI dot products for int8 (A offset by 128, C less 128 * colsum(B), B
// packed by groups of 4 along K) and of AVX-512 BF16 ones for bf16 (B packed
// by pairs along K, no offset) in functions that get the instructions' target
// features; shapes the blocks do not divide and dot-product=loops take no
// dot product: int8 keeps loops, bf16 is widened to f32 (exact) for the f32
// register blocks.
// With dot-product=amx, AMX tiles (signed int8, no offset; bf16): M, N and K
// padded with zeros to whole tiles, B packed by the same groups, blocks of
// 2 x 2 accumulator tiles loaded from C once, a K loop of tile products, and
// the function asks the runtime for the tiles on entry; any K (the register
// blocks need a multiple of the group).
// Execution: test/Execution/ml-transforms.mlir, test/Execution/amx-tiles.mlir.
// RUN: approx-opt %s --approx-lower-tensor-code="dot-product=avx512" | FileCheck %s --check-prefix=VNNI
// RUN: approx-opt %s --approx-lower-tensor-code="dot-product=amx" | FileCheck %s --check-prefix=AMX
// RUN: approx-opt %s --approx-lower-tensor-code="dot-product=loops" | FileCheck %s --check-prefix=LOOPS

// VNNI-LABEL: func.func @qmm(
// VNNI-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512vnni"]>
// VNNI: arith.xori %{{.*}}, %{{.*}} : i8
// VNNI: arith.shli %{{.*}}, %{{.*}} : i32
// VNNI: scf.for
// VNNI: scf.for
// VNNI-COUNT-16: vector.transfer_read %{{.*}} : memref<16x64xi32>, vector<16xi32>
// VNNI: scf.for
// VNNI-COUNT-2: vector.transfer_read %{{.*}} : memref<{{.*}}xi8{{.*}}>, vector<64xi8>
// VNNI: vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// VNNI-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// VNNI: scf.yield
// VNNI-COUNT-16: vector.transfer_write %{{.*}} : vector<16xi32>, memref<16x64xi32>
// AMX: func.func private @approx_rt_amx_permit()
// AMX-LABEL: func.func @qmm(
// AMX-SAME: target_features = #llvm.target_features<["+amx-tile", "+amx-int8"]>
// AMX-NOT: arith.xori
// AMX: call @approx_rt_amx_permit()
// AMX: memref.alloc() {{.*}} : memref<16x64xi8>
// AMX-NOT: memref.store %c0_i32
// AMX: memref.alloc() {{.*}} : memref<16x64xi32>
// AMX-NOT: memref.store %c0_i32
// AMX: memref.alloc() {{.*}} : memref<64x64xi8>
// AMX-NOT: memref.store %c0_i32
// AMX: memref.alloc() {{.*}} : memref<16x64x4xi8>
// AMX: memref.reinterpret_cast {{.*}} to memref<16x256xi8>
// AMX: scf.for
// AMX: scf.for
// AMX-COUNT-2: amx.tile_zero : !amx.tile<16x16xi32>
// AMX: scf.for
// AMX: amx.tile_load %{{.*}} : memref<16x64xi8> into !amx.tile<16x64xi8>
// AMX-COUNT-2: amx.tile_load %{{.*}} : memref<16x256xi8> into !amx.tile<16x64xi8>
// AMX-COUNT-2: amx.tile_muli %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// AMX: scf.yield
// AMX-COUNT-2: amx.tile_store %{{.*}} : memref<16x64xi32>, !amx.tile<16x16xi32>
// C an argument, not zeros: its tiles are loaded.
// AMX-LABEL: func.func @qbmm(
// AMX: call @approx_rt_amx_permit()
// AMX: amx.tile_load %{{.*}} : memref<3x16x32xi32> into !amx.tile<16x16xi32>
// AMX: amx.tile_muli
// K = 6: padded to a tile row of 64.
// AMX-LABEL: func.func @qmm_small(
// AMX: amx.tile_muli %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// AMX-LABEL: func.func @bf16mm(
// AMX-SAME: target_features = #llvm.target_features<["+amx-tile", "+amx-bf16"]>
// AMX: call @approx_rt_amx_permit()
// AMX: memref.alloc() {{.*}} : memref<16x64x2xbf16>
// AMX-COUNT-2: amx.tile_mulf %{{.*}} : !amx.tile<16x32xbf16>, !amx.tile<16x32xbf16>, !amx.tile<16x16xf32>
// K = 5 (odd): padded to a tile row of 32.
// AMX-LABEL: func.func @bf16mm_odd(
// AMX-COUNT-2: amx.tile_mulf %{{.*}} : !amx.tile<16x32xbf16>, !amx.tile<16x32xbf16>, !amx.tile<16x16xf32>
// LOOPS-LABEL: func.func @qmm(
// LOOPS-NOT: target_features
// LOOPS-NOT: vpdpbusd
// LOOPS: return
// LOOPS-LABEL: func.func @bf16mm(
// LOOPS-NOT: target_features
// LOOPS-NOT: dpbf16ps
// LOOPS: return
func.func @qmm(%a: tensor<16x8xi8>, %b: tensor<8x64xi8>) -> tensor<16x64xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x64xi32>
  %c = linalg.fill ins(%z : i32) outs(%e : tensor<16x64xi32>) -> tensor<16x64xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x8xi8>, tensor<8x64xi8>) outs(%c : tensor<16x64xi32>) -> tensor<16x64xi32>
  return %r : tensor<16x64xi32>
}

// Batched: the blocks loop over the batch too.
// VNNI-LABEL: func.func @qbmm(
// VNNI-SAME: target_features
// VNNI-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
func.func @qbmm(%a: tensor<3x8x12xi8>, %b: tensor<3x12x32xi8>, %c: tensor<3x8x32xi32>) -> tensor<3x8x32xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x8x12xi8>, tensor<3x12x32xi8>) outs(%c : tensor<3x8x32xi32>) -> tensor<3x8x32xi32>
  return %r : tensor<3x8x32xi32>
}

// N = 16 and K = 6 are not multiples of the block: loops, no features.
// VNNI-LABEL: func.func @qmm_small(
// VNNI-NOT: target_features
// VNNI-NOT: vpdpbusd
// VNNI: return
func.func @qmm_small(%a: tensor<8x6xi8>, %b: tensor<6x16xi8>, %c: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x6xi8>, tensor<6x16xi8>) outs(%c : tensor<8x16xi32>) -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// bf16 x bf16 -> f32: BF16 dot products on pairs along K, the accumulators
// f32, no offset or column sums.
// VNNI-LABEL: func.func @bf16mm(
// VNNI-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512bf16"]>
// VNNI-NOT: arith.xori
// VNNI-NOT: arith.shli
// VNNI: scf.for
// VNNI: scf.for
// VNNI-COUNT-16: vector.transfer_read %{{.*}} : memref<16x64xf32>, vector<16xf32>
// VNNI: scf.for
// VNNI-COUNT-2: vector.transfer_read %{{.*}} : memref<{{.*}}xbf16{{.*}}>, vector<32xbf16>
// VNNI: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// VNNI: vector.bitcast %{{.*}} : vector<16xi32> to vector<32xbf16>
// VNNI-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"{{.*}} : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// VNNI: scf.yield
// VNNI-COUNT-16: vector.transfer_write %{{.*}} : vector<16xf32>, memref<16x64xf32>
func.func @bf16mm(%a: tensor<16x8xbf16>, %b: tensor<8x64xbf16>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x8xbf16>, tensor<8x64xbf16>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// K = 5 is odd: no dot product, no features; the operands widened to f32
// (exact) for the f32 register blocks, not loops.
// VNNI-LABEL: func.func @bf16mm_odd(
// VNNI-NOT: target_features
// VNNI-NOT: dpbf16ps
// VNNI: memref.alloc() {{.*}} : memref<8x5xf32>
// VNNI: memref.alloc() {{.*}} : memref<5x32xf32>
// VNNI-NOT: dpbf16ps
// VNNI: -> (vector<8x32xf32>)
// VNNI: return
func.func @bf16mm_odd(%a: tensor<8x5xbf16>, %b: tensor<5x32xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x5xbf16>, tensor<5x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// A B that two contractions share (an unrolled RNN's weight, rounded once)
// is packed once, right after its definition. C is a fill of zeros: the
// accumulators start at zero, and C is neither filled nor read.
// VNNI-LABEL: func.func @bf16_shared(
// VNNI: memref.alloc() {{.*}} : memref<4x64x2xbf16>
// VNNI-NOT: memref.alloc() {{.*}} : memref<4x64x2xbf16>
// VNNI-NOT: memref<16x64xf32>, vector<16xf32>
// VNNI: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// VNNI-NOT: memref.alloc() {{.*}} : memref<4x64x2xbf16>
// VNNI: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// VNNI-NOT: memref.alloc() {{.*}} : memref<4x64x2xbf16>
// VNNI: return
// AMX-LABEL: func.func @bf16_shared(
// AMX: memref.alloc() {{.*}} : memref<16x64x2xbf16>
// AMX-NOT: memref.alloc() {{.*}} : memref<16x64x2xbf16>
// AMX: amx.tile_mulf
// AMX-NOT: memref.alloc() {{.*}} : memref<16x64x2xbf16>
// AMX: amx.tile_mulf
// AMX-NOT: memref.alloc() {{.*}} : memref<16x64x2xbf16>
// AMX: return
func.func @bf16_shared(%a1: tensor<16x8xbf16>, %a2: tensor<16x8xbf16>, %w: tensor<8x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xbf16>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x64xf32>) outs(%e : tensor<8x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x64xbf16>
  %ec = tensor.empty() : tensor<16x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%ec : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r1 = linalg.matmul ins(%a1, %b : tensor<16x8xbf16>, tensor<8x64xbf16>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r2 = linalg.matmul ins(%a2, %b : tensor<16x8xbf16>, tensor<8x64xbf16>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r1, %r2 : tensor<16x64xf32>, tensor<16x64xf32>
}
