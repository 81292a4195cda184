//===- Pipeline.h - the one approx compilation pipeline ---------*- C++ -*-===//
//
// The pipeline every tool runs: approx-opt (--approx-pipeline,
// --approx-to-llvm), approx-compile, approx-cc, the JIT and the benchmarks
// call buildApproxPipeline, so the pipeline tested is the pipeline shipped.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PIPELINE_PIPELINE_H
#define APPROX_PIPELINE_PIPELINE_H

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

/// The options of the pipeline (config-approx's and the stage).
struct PipelineOptions {
  std::string configPath;    // JSON configuration (seed parameter names)
  std::string mode = "baked"; // baked: constants; runtime: knob table
  bool exact = false;         // every knob value 0
  PipelineStage stage = PipelineStage::LLVM;
};

void buildApproxPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);

/// Registers `approx-pipeline` (stage Approx) and `approx-to-llvm` (stage
/// LLVM) with the global pass-pipeline registry, for approx-opt.
void registerApproxPipelines();

} // namespace approx

#endif // APPROX_PIPELINE_PIPELINE_H
