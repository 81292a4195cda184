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
  /// emit-approx, emit-management, config-approx, transform-approx,
  /// finalize-approx, lower-approx-runtime, canonicalize, cse: standard
  /// MLIR (func, scf, arith, memref, llvm).
  Approx,
  /// Approx, then the lowering to the LLVM dialect: tensors bufferized
  /// (function boundaries with identity layouts, ownership-based
  /// deallocation), linalg to loops, approx-lower-nsw-for, scf -> cf,
  /// memref and the rest to LLVM, reconcile-unrealized-casts.
  LLVM,
};

/// How int8 matmuls (decode_quantize's) become native code.
enum class Int8Dot {
  /// VNNI register blocks if the compiling host has AVX-512 VNNI, else Loops.
  Host,
  /// VNNI register blocks (functions get the avx512vnni feature: the code
  /// needs a CPU with it).
  Vnni,
  /// Loops clang vectorizes (any CPU).
  Loops,
};

/// The options of the pipeline (config-approx's, the lowering's, the stage).
struct PipelineOptions {
  std::string configPath;    // JSON configuration (seed parameter names)
  std::string mode = "baked"; // baked: constants; runtime: knob table
  bool exact = false;         // every knob value 0
  PipelineStage stage = PipelineStage::LLVM;
  Int8Dot int8Dot = Int8Dot::Host;
};

/// The description and values of an Int8Dot command-line option
/// (approx-compile's, the pipeline's and approx-lower-tensor-code's).
constexpr const char *kInt8DotDescription = "How int8 matmuls are lowered";
inline auto int8DotValues() {
  return llvm::cl::values(
      clEnumValN(Int8Dot::Host, "host",
                 "VNNI register blocks if this machine has AVX-512 VNNI"),
      clEnumValN(Int8Dot::Vnni, "vnni",
                 "VNNI register blocks (the code needs a VNNI CPU)"),
      clEnumValN(Int8Dot::Loops, "loops", "loops clang vectorizes"));
}

void buildApproxPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);

/// Registers `approx-pipeline` (stage Approx) and `approx-to-llvm` (stage
/// LLVM) with the global pass-pipeline registry, for approx-opt.
void registerApproxPipelines();

} // namespace approx

#endif // APPROX_PIPELINE_PIPELINE_H
