//===- ApplyKind.cpp - one transform kind applied to one op ---------------===//
#include "approx/Dialect/Approx/Transforms/ApplyKind.h"
#include "Common.h"
#include "TransformSupport.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

using namespace mlir;
using namespace approx;

std::optional<StringRef> approx::payloadMismatch(TransformKind kind,
                                                 Operation *op) {
  switch (kind) {
  case TransformKind::LoopPerforate:
    if (isPerforationTarget(op))
      return std::nullopt;
    return StringRef("an scf.for or scf.while loop, or a linalg reduction");
  case TransformKind::LoopTruncateEnd:
  case TransformKind::LoopTruncateStart:
  case TransformKind::LoopRandomSkip:
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return std::nullopt;
    return StringRef("an scf.for or scf.while loop");
  case TransformKind::FuncSubstitute:
    if (isa<func::CallOp>(op))
      return std::nullopt;
    return StringRef("a func.call");
  case TransformKind::TaskSkipping:
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
      return std::nullopt;
    return StringRef("an scf.if or scf.index_switch");
  case TransformKind::DecodeQuantize:
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      return std::nullopt;
    return StringRef("a linalg.matmul or linalg.batch_matmul");
  case TransformKind::PrecisionReduce:
    if (isa<linalg::LinalgOp>(op))
      return std::nullopt;
    return StringRef("a linalg op on f32 tensors");
  }
  llvm_unreachable("unknown transform kind");
}

/// The properties of the knob wrapping `payload` for `kind`.
static DictionaryAttr knobProperties(Operation *payload, TransformKind kind) {
  MLIRContext *ctx = payload->getContext();
  Builder b(ctx);
  int32_t id = nextKnobId(payload->getParentOfType<ModuleOp>());
  auto fn = payload->getParentOfType<FunctionOpInterface>();
  std::string name = ((fn ? fn.getName() : StringRef("module")) + "_" +
                      stringifyTransformKind(kind) + "_" + Twine(id))
                         .str();
  NamedAttrList props;
  props.append("id", b.getI32IntegerAttr(id));
  props.append("name", b.getStringAttr(name));
  props.append("transform_types",
               b.getArrayAttr({TransformKindAttr::get(ctx, kind)}));
  if (auto call = dyn_cast<func::CallOp>(payload))
    props.append("callee", call.getCalleeAttr());
  return props.getDictionary(ctx);
}

LogicalResult approx::applyKind(Operation *payload, TransformKind kind,
                                int32_t value, ArrayRef<int32_t> decisionValues,
                                KindApplication how) {
  MLIRContext *ctx = payload->getContext();
  KnobOp knob = wrapInKnob(payload, knobProperties(payload, kind));
  OpBuilder b = OpBuilder::atBlockBegin(&knob.getBody().front());
  auto t = TransformOp::create(
      b, payload->getLoc(), Value(), TransformKindAttr::get(ctx, kind),
      b.getI32IntegerAttr(value),
      decisionValues.empty() ? DenseI32ArrayAttr()
                             : b.getDenseI32ArrayAttr(decisionValues),
      StringAttr());
  auto undo = [&] {
    if (t)
      t.erase();
    inlineKnob(knob);
    return failure();
  };
  if (failed(t.verify()))
    return undo();
  if (how == KindApplication::Knob)
    return success();

  SymbolTableCollection symbols;
  RewritePatternSet set(ctx);
  populateTransformPatterns(set, symbols);
  FrozenRewritePatternSet frozen(std::move(set));
  PatternApplicator applicator(frozen);
  applicator.applyDefaultCostModel();
  PatternRewriter rewriter(ctx);
  if (failed(applicator.matchAndRewrite(t, rewriter)))
    return undo(); // the pattern reported why
  inlineKnob(knob);
  return success();
}
