// int8 and bf16 matmuls on AMX tiles (lib/Pipeline/AmxTiles.cpp), checked
// against C references: shapes no tile divides (M, N and K padded with
// zeros), a batch, and one function with contractions of several shapes and
// both types (LLVM gives each tile register one shape per function). The
// operands are small integers, so every product and sum is exact in f32 and
// bf16 and every lowering must give the same bits: the host's (tiles where
// it has them), AVX-512 register blocks, loops, and -O0 (which never takes
// tiles). The AMX lowering's LLVM IR is checked on any machine; it runs
// where the CPU has AMX. IR shape: test/Transforms/lower-tensor-code-dot.mlir.
//
// RUN: approx-compile %s %S/Inputs/amx_tiles.c -o %t.host
// RUN: %t.host > %t.host.out
// RUN: FileCheck %s < %t.host.out
// RUN: approx-compile %s %S/Inputs/amx_tiles.c -o %t.loops --approx-dot-product=loops
// RUN: %t.loops > %t.loops.out
// RUN: diff %t.host.out %t.loops.out
// RUN: approx-compile %s %S/Inputs/amx_tiles.c -o %t.vectors --approx-dot-product=vectors
// RUN: %t.vectors > %t.vectors.out
// RUN: diff %t.host.out %t.vectors.out
// RUN: approx-compile %s %S/Inputs/amx_tiles.c -O0 -o %t.o0
// RUN: %t.o0 > %t.o0.out
// RUN: diff %t.host.out %t.o0.out
// RUN: approx-compile %s --approx-dot-product=amx --emit=llvm -o - | FileCheck %s --check-prefix=IR
// RUN: not approx-compile %s -O0 --approx-dot-product=amx -c -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %if amx %{ approx-compile %s %S/Inputs/amx_tiles.c -o %t.amx --approx-dot-product=amx %}
// RUN: %if amx %{ %t.amx > %t.amx.out %}
// RUN: %if amx %{ diff %t.host.out %t.amx.out %}

// CHECK: qmm_odd digest {{[0-9a-f]+}}
// CHECK: bmm digest {{[0-9a-f]+}}
// CHECK: chain digest {{[0-9a-f]+}}
// CHECK: amx_tiles: all 3 checks passed
// IR-DAG: declare void @approx_rt_amx_permit()
// IR-DAG: call void @approx_rt_amx_permit()
// IR-DAG: call x86_amx @llvm.x86.tdpbssd.internal(
// IR-DAG: call x86_amx @llvm.x86.tdpbf16ps.internal(
// IR-DAG: "target-features"="+amx-tile,+amx-int8"
// IR-DAG: "target-features"="+amx-tile,+amx-int8,+amx-bf16"
// O0: error: AMX tiles (dot-product amx) need optimization level 1 or more

// i8 [33 x 201] x [201 x 95]: every dimension padded (K not a multiple of 4 either).
func.func @qmm_odd(%a: tensor<33x201xi8>, %b: tensor<201x95xi8>) -> tensor<33x95xi32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<33x95xi32>
  %c = linalg.fill ins(%z : i32) outs(%e : tensor<33x95xi32>) -> tensor<33x95xi32>
  %r = linalg.matmul ins(%a, %b : tensor<33x201xi8>, tensor<201x95xi8>) outs(%c : tensor<33x95xi32>) -> tensor<33x95xi32>
  return %r : tensor<33x95xi32>
}

// bf16 batch [3 x 40 x 67] x [3 x 67 x 50] (K odd), accumulating onto C.
func.func @bmm(%a: tensor<3x40x67xbf16>, %b: tensor<3x67x50xbf16>, %c: tensor<3x40x50xf32>) -> tensor<3x40x50xf32> attributes {llvm.emit_c_interface} {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x40x67xbf16>, tensor<3x67x50xbf16>) outs(%c : tensor<3x40x50xf32>) -> tensor<3x40x50xf32>
  return %r : tensor<3x40x50xf32>
}

// ((X[64 x 96] W1[96 x 48]) as bf16) W2[48 x 10] + (Q[64 x 128] P[128 x 10])
// as f32: three contractions, four tile shapes, one function.
func.func @chain(%x: tensor<64x96xbf16>, %w1: tensor<96x48xbf16>, %w2: tensor<48x10xbf16>, %q: tensor<64x128xi8>, %p: tensor<128x10xi8>) -> tensor<64x10xf32> attributes {llvm.emit_c_interface} {
  %zf = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<64x48xf32>
  %c1 = linalg.fill ins(%zf : f32) outs(%e1 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<64x96xbf16>, tensor<96x48xbf16>) outs(%c1 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %eh = tensor.empty() : tensor<64x48xbf16>
  %hb = linalg.map { arith.truncf } ins(%h : tensor<64x48xf32>) outs(%eh : tensor<64x48xbf16>)
  %e2 = tensor.empty() : tensor<64x10xf32>
  %c2 = linalg.fill ins(%zf : f32) outs(%e2 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %y = linalg.matmul ins(%hb, %w2 : tensor<64x48xbf16>, tensor<48x10xbf16>) outs(%c2 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %e3 = tensor.empty() : tensor<64x10xi32>
  %c3 = linalg.fill ins(%zi : i32) outs(%e3 : tensor<64x10xi32>) -> tensor<64x10xi32>
  %s = linalg.matmul ins(%q, %p : tensor<64x128xi8>, tensor<128x10xi8>) outs(%c3 : tensor<64x10xi32>) -> tensor<64x10xi32>
  %r = linalg.map ins(%y, %s : tensor<64x10xf32>, tensor<64x10xi32>) outs(%c2 : tensor<64x10xf32>)
    (%yv: f32, %sv: i32, %unused: f32) {
      %sf = arith.sitofp %sv : i32 to f32
      %t = arith.addf %yv, %sf : f32
      linalg.yield %t : f32
    }
  return %r : tensor<64x10xf32>
}
