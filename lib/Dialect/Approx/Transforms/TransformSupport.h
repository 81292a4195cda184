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
namespace mlir::scf {
class IndexSwitchOp;
} // namespace mlir::scf

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

/// An empty tensor of `elem` shaped like the tensor `like`: all its
/// dimensions, or those listed in `dims` (in that order).
mlir::Value emptyLike(mlir::OpBuilder &b, mlir::Location loc, mlir::Value like,
                      mlir::Type elem);
mlir::Value emptyLike(mlir::OpBuilder &b, mlir::Location loc, mlir::Value like,
                      mlir::Type elem, llvm::ArrayRef<unsigned> dims);

/// The tensor `init` filled with the scalar `value` (linalg.fill).
mlir::Value filled(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                   mlir::Value init);

/// `op` as a linalg.generic: itself, or its generalization (replacing it,
/// at the rewriter's insertion point); a located error naming `kind` when
/// it cannot be generalized.
mlir::FailureOr<mlir::linalg::GenericOp>
asGeneric(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
          llvm::StringRef kind);

/// An op loop_perforate applies to: an scf.for / scf.while loop or a linalg
/// reduction (the knob's first such op; a transform op's payload).
bool isPerforationTarget(mlir::Operation *op);

/// The ops of the knob's region proper: those after the management op,
/// without the safety contract and the terminator.
llvm::SmallVector<mlir::Operation *> regionOps(KnobOp knob,
                                               mlir::Operation *mgmt);

/// The first op of the region proper satisfying `pred`, in pre-order.
mlir::Operation *findFirstAfter(KnobOp knob, mlir::Operation *mgmt,
                                llvm::function_ref<bool(mlir::Operation *)> pred);

/// The first op of type OpTs in the region proper, in pre-order.
template <typename... OpTs>
mlir::Operation *findFirstAfter(KnobOp knob, mlir::Operation *mgmt) {
  return findFirstAfter(knob, mgmt,
                        [](mlir::Operation *op) { return mlir::isa<OpTs...>(op); });
}

/// An scf.index_switch on the knob value with one case per candidate c,
/// each yielding buildCase(builder, c); the default region (the exact path)
/// is created empty for the caller to fill. Fails when a case does.
mlir::FailureOr<mlir::scf::IndexSwitchOp> switchOnCandidates(
    mlir::OpBuilder &b, mlir::Location loc, const KnobValue &k,
    mlir::TypeRange types,
    llvm::function_ref<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
        mlir::OpBuilder &, int32_t)>
        buildCase);

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
