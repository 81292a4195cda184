//===- IndexSwitchToIf.cpp - scf.index_switch as a chain of scf.if --------===//
//
// `approx-index-switch-to-if`: every scf.index_switch becomes nested scf.if
// ops comparing the index with each case in turn, the default last. The
// same control flow, for consumers that mishandle index_switch: IREE 3.13's
// stream conversion breaks an index_switch whose results are tensors (the
// form a func_substitute decision tree takes), while scf.if is fine.
//
//===----------------------------------------------------------------------===//
#include "LowerTensorCode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace approx {
namespace {

/// switch(cases c0..cn, default) -> if (arg == c0) {case 0} else {rest},
/// where rest is the default alone or switch(c1..cn, default).
void rewrite(IRRewriter &rw, scf::IndexSwitchOp op) {
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  if (op.getCases().empty()) {
    Block &body = op.getDefaultRegion().front();
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rw.eraseOp(yield);
    rw.inlineBlockBefore(&body, op);
    rw.replaceOp(op, results);
    return;
  }
  Value first = arith::ConstantIndexOp::create(rw, loc, op.getCases()[0]);
  Value cond = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq,
                                     op.getArg(), first);
  auto ifOp = scf::IfOp::create(rw, loc, op.getResultTypes(), cond,
                                /*addThenBlock=*/false, /*addElseBlock=*/false);
  rw.inlineRegionBefore(op.getCaseRegions()[0], ifOp.getThenRegion(),
                        ifOp.getThenRegion().end());
  if (op.getCases().size() == 1) {
    rw.inlineRegionBefore(op.getDefaultRegion(), ifOp.getElseRegion(),
                          ifOp.getElseRegion().end());
  } else {
    Block *rest = rw.createBlock(&ifOp.getElseRegion());
    rw.setInsertionPointToStart(rest);
    SmallVector<int64_t> cases(op.getCases().drop_front());
    auto inner = scf::IndexSwitchOp::create(rw, loc, op.getResultTypes(),
                                            op.getArg(), cases, cases.size());
    for (auto [i, region] : llvm::enumerate(op.getCaseRegions().drop_front()))
      rw.inlineRegionBefore(region, inner.getCaseRegions()[i],
                            inner.getCaseRegions()[i].end());
    rw.inlineRegionBefore(op.getDefaultRegion(), inner.getDefaultRegion(),
                          inner.getDefaultRegion().end());
    scf::YieldOp::create(rw, loc, inner.getResults());
    rewrite(rw, inner);
  }
  rw.replaceOp(op, ifOp.getResults());
}

struct IndexSwitchToIfPass
    : PassWrapper<IndexSwitchToIfPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(IndexSwitchToIfPass)
  StringRef getArgument() const override { return "approx-index-switch-to-if"; }
  StringRef getDescription() const override {
    return "scf.index_switch as nested scf.if (for IREE, whose stream "
           "conversion breaks index_switch ops with tensor results)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, scf::SCFDialect>();
  }
  void runOnOperation() override {
    SmallVector<scf::IndexSwitchOp> switches;
    getOperation().walk([&](scf::IndexSwitchOp op) { switches.push_back(op); });
    IRRewriter rw(&getContext());
    for (scf::IndexSwitchOp op : switches) // inner ones first (post-order)
      rewrite(rw, op);
  }
};

} // namespace

std::unique_ptr<Pass> createIndexSwitchToIfPass() {
  return std::make_unique<IndexSwitchToIfPass>();
}

} // namespace approx
