//===- TransformSupport.h - helpers of the transform patterns ---*- C++ -*-===//
// Private to lib/Dialect/Approx/Transforms.
#ifndef APPROX_LIB_TRANSFORMS_TRANSFORMSUPPORT_H
#define APPROX_LIB_TRANSFORMS_TRANSFORMSUPPORT_H

#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::linalg {
class GenericOp;
class LinalgOp;
} // namespace mlir::linalg

namespace approx {

/// The knob value a transform is applied with.
struct KnobValue {
  mlir::Value value;                     // i32, always set
  std::optional<int32_t> constant;       // set when known at compile time
  llvm::SmallVector<int32_t> candidates; // non-zero values it may take, sorted
};

/// The knob value of `t`: its constant knob_val, its runtime parameter
/// (an approx.runtime_param created before `t`) or its value operand.
mlir::FailureOr<KnobValue> knobValue(mlir::RewriterBase &rewriter,
                                     TransformOp t);

mlir::Value constI32(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Converts an i32 knob value to `type` (index or an integer type).
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                   mlir::Type type);

/// max(k, 1): the work divisor of a loop kind, 0 (exact) acting as 1.
mlir::Value divisor(mlir::OpBuilder &b, mlir::Location loc,
                    const KnobValue &k);

/// `op` as a linalg.generic: itself, or its generalization (replacing it,
/// at the rewriter's insertion point); a located error naming `kind` when
/// it cannot be generalized.
mlir::FailureOr<mlir::linalg::GenericOp>
asGeneric(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
          llvm::StringRef kind);

/// The ops of the knob's region proper: those after the management op,
/// without the safety contract and the terminator.
llvm::SmallVector<mlir::Operation *> regionOps(KnobOp knob,
                                               mlir::Operation *mgmt);

/// The first op of type OpTs in the region proper, in pre-order.
template <typename... OpTs>
mlir::Operation *findFirstAfter(KnobOp knob, mlir::Operation *mgmt) {
  for (mlir::Operation *top : regionOps(knob, mgmt)) {
    mlir::Operation *found = nullptr;
    top->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
      if (mlir::isa<OpTs...>(op)) {
        found = op;
        return mlir::WalkResult::interrupt();
      }
      return mlir::WalkResult::advance();
    });
    if (found)
      return found;
  }
  return nullptr;
}

/// Base of the per-kind patterns: matches an approx.transform of `Kind`,
/// computes its knob value, calls apply() unless the value is the constant 0
/// (exact), and erases the transform.
template <TransformKind Kind>
struct TransformKindPattern : mlir::OpRewritePattern<TransformOp> {
  using mlir::OpRewritePattern<TransformOp>::OpRewritePattern;

  virtual mlir::LogicalResult apply(mlir::PatternRewriter &rewriter,
                                    KnobOp knob, TransformOp t,
                                    const KnobValue &k) const = 0;

  mlir::LogicalResult
  matchAndRewrite(TransformOp t, mlir::PatternRewriter &rewriter) const final {
    if (t.getTransformType() != Kind)
      return mlir::failure();
    auto knob = t->getParentOfType<KnobOp>();
    mlir::FailureOr<KnobValue> k = knobValue(rewriter, t);
    if (mlir::failed(k))
      return mlir::failure();
    if (!(k->constant && *k->constant == 0) &&
        mlir::failed(apply(rewriter, knob, t, *k)))
      return mlir::failure();
    rewriter.eraseOp(t);
    return mlir::success();
  }
};

} // namespace approx

#endif // APPROX_LIB_TRANSFORMS_TRANSFORMSUPPORT_H
