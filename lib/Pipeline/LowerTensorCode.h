//===- LowerTensorCode.h - tensor code lowering passes ----------*- C++ -*-===//
// Private to lib/Pipeline.
#ifndef APPROX_LIB_PIPELINE_LOWERTENSORCODE_H
#define APPROX_LIB_PIPELINE_LOWERTENSORCODE_H

#include "approx/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace approx {

/// Bufferizes modules that contain tensors and lowers their linalg ops:
/// f32 matmuls (and int8 and bf16 ones, as `dotProduct` says) tiled into
/// register blocks and vectorized, everything else to loops, large
/// independent loops on OpenMP threads. Modules without tensors are left
/// alone.
std::unique_ptr<mlir::Pass> createLowerTensorCodePass(DotProduct dotProduct);

/// Marks a loop whose iterations are independent (the tiles of one
/// contraction, each writing its own block of C): after bufferization it may
/// run on threads (chooseParallelLoops).
constexpr llvm::StringLiteral kIndependentIterations = "approx.independent";
void markIndependent(mlir::Operation *loop);

/// The loops of bufferized tensor code that run on threads: the outermost
/// independent loop of each nest (scf.parallel, or scf.for marked
/// kIndependentIterations) where it carries enough work; every other one
/// becomes sequential scf.for (Parallelize.cpp). convert-scf-to-openmp
/// lowers the chosen ones.
void chooseParallelLoops(mlir::ModuleOp module);

/// `approx-polynomial-erf`: math.erf / math.erfc as polynomials, on their
/// own (for backends without an erfc lowering, such as IREE's).
std::unique_ptr<mlir::Pass> createPolynomialErfPass();

/// `approx-index-switch-to-if`: scf.index_switch as nested scf.if
/// (IndexSwitchToIf.cpp).
std::unique_ptr<mlir::Pass> createIndexSwitchToIfPass();

} // namespace approx

#endif // APPROX_LIB_PIPELINE_LOWERTENSORCODE_H
