//===- SafetyContract.cpp - try-check-recover -----------------------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {
namespace {

/// The knob's results go, with the function's arguments, to the checker;
/// when it returns false the recover function's results replace them.
/// Applies once the knob's transform is (the contract guards its result).
struct LowerSafetyContract : OpRewritePattern<SafetyContractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SafetyContractOp contract,
                                PatternRewriter &b) const override {
    auto knob = contract->getParentOfType<KnobOp>();
    if (knob.getManagementOp())
      return b.notifyMatchFailure(contract, "the transform is not applied yet");
    auto fn = knob->getParentOfType<func::FuncOp>();
    Operation *yield = knob.getYield();
    Location loc = contract.getLoc();
    b.setInsertionPoint(yield);
    SmallVector<Value> checkArgs(yield->getOperands());
    llvm::append_range(checkArgs, fn.getArguments());
    auto check = func::CallOp::create(b, loc, contract.getChecker(),
                                      TypeRange(b.getI1Type()), checkArgs);
    auto ifOp = scf::IfOp::create(b, loc, knob.getResultTypes(),
                                  check.getResult(0), /*withElse=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    if (!knob.getResultTypes().empty())
      scf::YieldOp::create(tb, loc, yield->getOperands());
    OpBuilder eb = ifOp.getElseBodyBuilder();
    auto recover = func::CallOp::create(eb, loc, contract.getRecover(),
                                        knob.getResultTypes(),
                                        fn.getArguments());
    if (!knob.getResultTypes().empty())
      scf::YieldOp::create(eb, loc, recover.getResults());
    b.modifyOpInPlace(yield, [&] { yield->setOperands(ifOp.getResults()); });
    b.eraseOp(contract);
    return success();
  }
};

} // namespace

void populateSafetyContractPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerSafetyContract>(patterns.getContext());
}

} // namespace approx
