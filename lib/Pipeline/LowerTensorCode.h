//===- LowerTensorCode.h - tensor code lowering passes ----------*- C++ -*-===//
// Private to lib/Pipeline.
#ifndef APPROX_LIB_PIPELINE_LOWERTENSORCODE_H
#define APPROX_LIB_PIPELINE_LOWERTENSORCODE_H

#include "approx/Pipeline/Pipeline.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace approx {

/// Bufferizes modules that contain tensors and lowers their linalg ops:
/// f32 matmuls (and int8 and bf16 ones, as `dotProduct` says) tiled into
/// register blocks and vectorized, everything else to loops. Modules without
/// tensors are left alone.
std::unique_ptr<mlir::Pass> createLowerTensorCodePass(DotProduct dotProduct);

/// `approx-polynomial-erf`: math.erf / math.erfc as polynomials, on their
/// own (for backends without an erfc lowering, such as IREE's).
std::unique_ptr<mlir::Pass> createPolynomialErfPass();

/// `approx-index-switch-to-if`: scf.index_switch as nested scf.if
/// (IndexSwitchToIf.cpp).
std::unique_ptr<mlir::Pass> createIndexSwitchToIfPass();

} // namespace approx

#endif // APPROX_LIB_PIPELINE_LOWERTENSORCODE_H
