//===- Passes.h - approx-opt passes -----------------------------*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_TRANSFORMS_PASSES_H
#define APPROX_DIALECT_APPROX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include <string>

namespace mlir {
class OpPassManager;
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
} // namespace mlir

namespace approx {

#define GEN_PASS_DECL
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"

/// Options of the whole approx pipeline (the config-approx options).
struct PipelineOptions {
  std::string configPath;
  std::string mode = "baked";
  bool exact = false;
};

/// emit-approx, emit-management, config-approx, transform-approx,
/// finalize-approx.
void buildApproxPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);

/// The approx pipeline, canonicalisation, then upstream lowering to the LLVM
/// dialect (scf -> cf -> llvm, reconcile casts).
void buildApproxToLLVMPipeline(mlir::OpPassManager &pm,
                               const PipelineOptions &opts);

/// Upstream lowering of the pipeline's output to the LLVM dialect
/// (scf -> cf -> llvm, reconcile casts).
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers the passes and the pipelines `approx-pipeline` and
/// `approx-to-llvm` with the global registry (for approx-opt).
void registerApproxPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"

} // namespace approx

#endif // APPROX_DIALECT_APPROX_TRANSFORMS_PASSES_H
