//===- FuncSubstitute.cpp - the func_substitute kind ----------------------===//
//
// func_substitute(k): the work of `f` is done by `approx_f_k`. On a whole
// function the body becomes the exact case of a switch over the variants;
// around a region, the calls to the knob's `callee` are dispatched.
//
//===----------------------------------------------------------------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {
namespace {

/// scf.index_switch over k's candidates, case c calling variant c of `base`;
/// the default region (the exact path) is left empty for the caller.
scf::IndexSwitchOp dispatch(OpBuilder &b, Location loc, StringRef base,
                            const KnobValue &k, TypeRange types,
                            ValueRange args) {
  return *switchOnCandidates(
      b, loc, k, types,
      [&](OpBuilder &rb, int32_t c) -> FailureOr<SmallVector<Value>> {
        auto call = func::CallOp::create(rb, loc, variantName(base, c), types,
                                         args);
        return SmallVector<Value>(call.getResults());
      });
}

struct FuncSubstitute : TransformKindPattern<TransformKind::FuncSubstitute> {
  FuncSubstitute(MLIRContext *ctx, SymbolTableCollection &tables)
      : TransformKindPattern(ctx), tables(tables) {}

  SymbolTableCollection &tables;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    auto fn = knob->getParentOfType<func::FuncOp>();
    if (auto callee = knob.getCalleeAttr()) {
      SmallVector<func::CallOp> sites;
      for (Operation *op : regionOps(knob, t))
        op->walk([&](func::CallOp call) {
          if (call.getCallee() == callee.getValue())
            sites.push_back(call);
        });
      if (sites.empty())
        return knob.emitOpError("func_substitute: no call to @")
               << callee.getValue() << " inside the knob";
      if (failed(verifySubstituteVariants(knob, tables, callee.getValue(),
                                          k.candidates)))
        return failure();
      substituteCalls(b, callee.getValue(), sites, k);
      return success();
    }
    if (!knob.isWholeFunction() || !fn)
      return knob.emitOpError("func_substitute needs a knob around a whole "
                              "function or a 'callee' whose calls to replace");
    if (failed(verifySubstituteVariants(knob, tables, fn.getSymName(),
                                        k.candidates)))
      return failure();
    substituteBody(b, knob, t, fn, k);
    return success();
  }

  static void substituteCalls(PatternRewriter &b, StringRef base,
                              ArrayRef<func::CallOp> sites,
                              const KnobValue &k) {
    for (func::CallOp call : sites) {
      if (k.constant) {
        b.modifyOpInPlace(call,
                          [&] { call.setCallee(variantName(base, *k.constant)); });
        continue;
      }
      if (k.candidates.empty())
        continue;
      b.setInsertionPoint(call);
      auto sw = dispatch(b, call.getLoc(), base, k, call.getResultTypes(),
                         call.getOperands());
      b.replaceAllUsesWith(call->getResults(), sw.getResults());
      Block &dflt = sw.getDefaultRegion().front();
      b.moveOpBefore(call, &dflt, dflt.end());
      b.setInsertionPointToEnd(&dflt);
      scf::YieldOp::create(b, call.getLoc(), call.getResults());
    }
  }

  /// Whole function: the body is the exact case; each variant is one call.
  static void substituteBody(PatternRewriter &b, KnobOp knob, TransformOp t,
                             func::FuncOp fn, const KnobValue &k) {
    Operation *yield = knob.getYield();
    SmallVector<Operation *> body = regionOps(knob, t);
    b.setInsertionPoint(yield);
    Location loc = knob.getLoc();
    if (k.constant) {
      auto call = func::CallOp::create(b, loc,
                                       variantName(fn.getSymName(), *k.constant),
                                       knob.getResultTypes(), fn.getArguments());
      b.modifyOpInPlace(yield, [&] { yield->setOperands(call.getResults()); });
      for (Operation *op : llvm::reverse(body)) {
        op->dropAllUses();
        b.eraseOp(op);
      }
      return;
    }
    if (k.candidates.empty())
      return;
    auto sw = dispatch(b, loc, fn.getSymName(), k, knob.getResultTypes(),
                       fn.getArguments());
    Block &dflt = sw.getDefaultRegion().front();
    for (Operation *op : body)
      b.moveOpBefore(op, &dflt, dflt.end());
    b.setInsertionPointToEnd(&dflt);
    scf::YieldOp::create(b, loc, yield->getOperands());
    b.modifyOpInPlace(yield, [&] { yield->setOperands(sw.getResults()); });
  }
};

} // namespace

void populateFuncSubstitutePatterns(RewritePatternSet &patterns,
                                    SymbolTableCollection &symbols) {
  patterns.add<FuncSubstitute>(patterns.getContext(), symbols);
}

} // namespace approx
