//===- Pipeline.h - the one approx compilation pipeline ---------*- C++ -*-===//
//
// The pipeline every tool runs: approx-opt (--approx-pipeline,
// --approx-to-llvm), approx-compile, approx-cc, the JIT and the benchmarks
// call buildApproxPipeline, so the pipeline tested is the pipeline shipped.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PIPELINE_PIPELINE_H
#define APPROX_PIPELINE_PIPELINE_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace approx {

/// Where the pipeline stops.
enum class PipelineStage {
  /// apply-transform-script (knobs for runtime / exact), emit-approx,
  /// emit-management, config-approx, clone-exact-approx,
  /// transform-approx, finalize-approx, dispatch-exact-approx,
  /// lower-approx-runtime, canonicalize, cse: standard
  /// MLIR (func, scf, arith, memref, llvm).
  Approx,
  /// Approx, then the lowering to the LLVM dialect: tensors bufferized
  /// (function boundaries with identity layouts, ownership-based
  /// deallocation), linalg to loops, approx-lower-nsw-for, scf -> cf,
  /// memref and the rest to LLVM, reconcile-unrealized-casts.
  LLVM,
};

/// How int8 and bf16 matmuls (decode_quantize's, precision_reduce's) become
/// native code.
enum class DotProduct {
  /// AMX tiles where the compiling host has them (amx_int8 / amx_bf16) and
  /// its kernel grants them to the process, else as Vectors. Code compiled
  /// at -O0 takes Vectors: LLVM cannot select AMX tiles there.
  Host,
  /// AMX tiles (functions get the amx-tile and amx-int8 / amx-bf16
  /// features: the code needs such a CPU, and Linux to grant the tiles).
  Amx,
  /// Register blocks of AVX-512 dot products (VNNI for int8, BF16 for bf16)
  /// where the compiling host has the instructions, else Loops; never AMX.
  Vectors,
  /// Register blocks of AVX-512 VNNI and BF16 dot products (functions get
  /// the avx512vnni / avx512bf16 features: the code needs a CPU with them).
  Avx512,
  /// Loops clang vectorizes (any CPU).
  Loops,
};

/// The options of the pipeline (config-approx's, the lowering's, the stage).
struct PipelineOptions {
  std::string configPath;    // JSON configuration (seed parameter names)
  std::string mode = "baked"; // baked: constants; runtime: knob table
  bool exact = false;         // every knob value 0
  PipelineStage stage = PipelineStage::LLVM;
  DotProduct dotProduct = DotProduct::Host;
  bool configOtherUnits = false; // the config names other units' parameters too
};

/// The description and values of a DotProduct command-line option
/// (approx-compile's, the pipeline's and approx-lower-tensor-code's).
constexpr const char *kDotProductDescription =
    "How int8 and bf16 matmuls are lowered";
inline auto dotProductValues() {
  return llvm::cl::values(
      clEnumValN(DotProduct::Host, "host",
                 "AMX tiles, else AVX-512 VNNI / BF16 register blocks, "
                 "where this machine has them (at -O0: as vectors)"),
      clEnumValN(DotProduct::Amx, "amx",
                 "AMX tiles (the code needs such a CPU; -O1 or more)"),
      clEnumValN(DotProduct::Vectors, "vectors",
                 "AVX-512 VNNI / BF16 register blocks where this machine "
                 "has them, never AMX tiles"),
      clEnumValN(DotProduct::Avx512, "avx512",
                 "AVX-512 VNNI / BF16 register blocks (the code needs such a "
                 "CPU)"),
      clEnumValN(DotProduct::Loops, "loops", "loops clang vectorizes"));
}

void buildApproxPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);

/// Registers `approx-pipeline` (stage Approx) and `approx-to-llvm` (stage
/// LLVM) with the global pass-pipeline registry, for approx-opt.
void registerApproxPipelines();

} // namespace approx

#endif // APPROX_PIPELINE_PIPELINE_H
