//===- LiftToSCF.cpp - cf -> scf for raised functions ---------------------===//
#include "approx/Frontend/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace approx {
#define GEN_PASS_DEF_LIFTTOSCF
#include "approx/Frontend/Passes.h.inc"
} // namespace approx

using namespace mlir;

namespace {

/// The CFG-to-SCF transformation's preconditions: only cf branches and
/// func.return end blocks.
bool liftable(func::FuncOp fn) {
  for (Block &block : fn.getBody())
    if (!isa<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp, func::ReturnOp>(
            block.getTerminator()))
      return false;
  return true;
}

struct LiftToSCFPass : approx::impl::LiftToSCFBase<LiftToSCFPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ControlFlowToSCFTransformation transformation;
    for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal() || fn.getBody().hasOneBlock() || !liftable(fn))
        continue;
      DominanceInfo dominance(fn);
      if (failed(transformCFGToSCF(fn.getBody(), transformation, dominance))) {
        fn.emitError("cannot structure the control flow of this function");
        return signalPassFailure();
      }
    }
    // Canonical top-tested loops: the condition alone in the before region,
    // the body in the after region.
    RewritePatternSet patterns(&getContext());
    for (RegisteredOperationName name :
         getContext().getRegisteredOperations())
      name.getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      module.emitWarning("canonicalization did not converge");
  }
};

} // namespace
