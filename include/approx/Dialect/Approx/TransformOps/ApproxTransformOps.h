//===- ApproxTransformOps.h - transform.approx.* ops ------------*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_TRANSFORMOPS_APPROXTRANSFORMOPS_H
#define APPROX_DIALECT_APPROX_TRANSFORMOPS_APPROXTRANSFORMOPS_H

#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace approx {
namespace detail {
/// The shared implementation of the transform.approx.* ops.
mlir::DiagnosedSilenceableFailure
applyKindOp(mlir::Operation *op, TransformKind kind,
            mlir::IntegerAttr value, mlir::Value param, mlir::Value target,
            mlir::transform::TransformState &state);
void kindOpEffects(mlir::MutableArrayRef<mlir::OpOperand> target,
                   mlir::MutableArrayRef<mlir::OpOperand> param,
                   llvm::SmallVectorImpl<mlir::MemoryEffects::EffectInstance>
                       &effects);
mlir::LogicalResult verifyKindOp(mlir::Operation *op, TransformKind kind,
                                 mlir::IntegerAttr value, mlir::Value param);
} // namespace detail

/// Registers the transform.approx.* ops as a Transform-dialect extension.
void registerTransformDialectExtension(mlir::DialectRegistry &registry);
} // namespace approx

#define GET_OP_CLASSES
#include "approx/Dialect/Approx/TransformOps/ApproxTransformOps.h.inc"

#endif // APPROX_DIALECT_APPROX_TRANSFORMOPS_APPROXTRANSFORMOPS_H
