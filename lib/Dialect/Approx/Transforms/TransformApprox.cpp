//===- TransformApprox.cpp - decision trees and transforms -> std ---------===//
//
// A thin driver over the patterns of Patterns.h. Knobs are visited inner
// first; in each, the decision tree (if any) is lowered, then the transform
// of its kind, then the safety contract. A pattern that cannot apply reports
// why at the op; the pass then fails.
//
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace approx {
#define GEN_PASS_DEF_TRANSFORMAPPROX
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

void approx::populateTransformPatterns(RewritePatternSet &patterns,
                                       SymbolTableCollection &symbols) {
  populateLoopTransformPatterns(patterns);
  populateFuncSubstitutePatterns(patterns, symbols);
  populateTaskSkippingPatterns(patterns);
  populateMLTransformPatterns(patterns);
}

namespace {

struct TransformApproxPass
    : approx::impl::TransformApproxBase<TransformApproxPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(verifyKnobsUnique(module)))
      return signalPassFailure();
    RewritePatternSet set(ctx);
    // One symbol table for all knobs: a fresh one per knob made the pass
    // quadratic in the number of knobs.
    SymbolTableCollection symbols;
    populateDecisionTreePatterns(set);
    populateTransformPatterns(set, symbols);
    populateSafetyContractPatterns(set);
    FrozenRewritePatternSet frozen(std::move(set));
    PatternApplicator applicator(frozen);
    applicator.applyDefaultCostModel();
    PatternRewriter rewriter(ctx);

    // Patterns report their own errors; an op no pattern takes gets one.
    unsigned errors = 0;
    ScopedDiagnosticHandler counter(ctx, [&](Diagnostic &d) {
      errors += d.getSeverity() == DiagnosticSeverity::Error;
      return failure(); // pass it on
    });
    auto apply = [&](Operation *op) {
      unsigned before = errors;
      if (succeeded(applicator.matchAndRewrite(op, rewriter)))
        return success();
      if (errors == before)
        op->emitOpError("no rewrite pattern applies to this op");
      return failure();
    };

    for (KnobOp knob : collectKnobs(module)) {
      Operation *mgmt = knob.getManagementOp();
      if (!mgmt) {
        knob.emitOpError("has no decision_tree or transform; run "
                         "emit-management first");
        return signalPassFailure();
      }
      Operation *contract = knob.getSafetyContract();
      if (isa<DecisionTreeOp>(mgmt) && failed(apply(mgmt)))
        return signalPassFailure();
      if (failed(apply(knob.getManagementOp())))
        return signalPassFailure();
      if (contract && failed(apply(contract)))
        return signalPassFailure();
      knob.setLowered(true);
    }
  }
};

} // namespace
