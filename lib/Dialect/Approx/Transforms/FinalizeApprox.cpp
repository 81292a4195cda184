//===- FinalizeApprox.cpp - inline knobs, reject leftovers ----------------===//
#include "Common.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"

namespace approx {
#define GEN_PASS_DEF_FINALIZEAPPROX
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

struct FinalizeApproxPass
    : approx::impl::FinalizeApproxBase<FinalizeApproxPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    for (KnobOp knob : collectKnobs(module)) {
      if (!knob.getLowered()) {
        knob.emitOpError("was not lowered; run transform-approx before "
                         "finalize-approx");
        ok = false;
        continue;
      }
      inlineKnob(knob);
    }
    Dialect *approxDialect = getContext().getLoadedDialect<ApproxDialect>();
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Knobs that were not lowered are reported above, with their contents.
      if (isa<KnobOp>(op))
        return WalkResult::skip();
      if (isa<RuntimeParamOp>(op))
        return WalkResult::advance();
      if (op->getDialect() != approxDialect)
        return WalkResult::advance();
      StringRef hint = isa<DecisionTreeAnnotationOp, StaticTransformAnnotationOp,
                           SafetyContractAnnotationOp, ConvertToCallAnnotationOp>(op)
                           ? "an annotation must be consumed by emit-approx"
                           : "it must be inside a knob lowered by "
                             "transform-approx";
      op->emitOpError("remains after finalize-approx: ") << hint;
      ok = false;
      return WalkResult::advance();
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
