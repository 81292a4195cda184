//===- DecisionTreePattern.cpp - decision tree -> knob value --------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {
namespace {

/// Branch index = number of thresholds <= state; the branch's decision (an
/// scf.index_switch over constants, or selects among runtime reads) drives
/// an approx.transform of the same kind.
struct LowerDecisionTree : OpRewritePattern<DecisionTreeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DecisionTreeOp dt,
                                PatternRewriter &b) const override {
    Location loc = dt.getLoc();
    ArrayRef<int32_t> thresholds = dt.getThresholds();
    ArrayRef<int32_t> decisions = dt.getDecisions();
    size_t n = thresholds.size();
    // A parameter: a constant, or a runtime read in runtime-table builds.
    auto param = [&](OpBuilder &pb, size_t i, int32_t dflt) -> Value {
      if (auto names = dt.getRuntimeParams())
        return RuntimeParamOp::create(pb, loc, pb.getI32Type(),
                                      cast<StringAttr>((*names)[i]),
                                      pb.getI32IntegerAttr(dflt));
      return constI32(pb, loc, dflt);
    };

    b.setInsertionPoint(dt);
    Value count = constI32(b, loc, 0);
    for (size_t i = 0; i < n; ++i) {
      Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       dt.getState(), param(b, i, thresholds[i]));
      Value one = arith::ExtUIOp::create(b, loc, b.getI32Type(), ge);
      count = arith::AddIOp::create(b, loc, count, one);
    }
    // Runtime-table builds select among the decisions, all read before:
    // the reads are loads the optimiser may hoist out of a loop, and the
    // selects leave no branch on the state (a switch on it mispredicts
    // when the state varies from call to call: pagerank's in-degrees).
    // Baked decisions are constants in the cases of a switch.
    Value decision;
    if (dt.getRuntimeParams()) {
      decision = param(b, n, decisions[0]);
      for (size_t j = 1; j <= n; ++j) {
        Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           count, constI32(b, loc, int32_t(j)));
        decision = arith::SelectOp::create(b, loc, here,
                                           param(b, n + j, decisions[j]),
                                           decision);
      }
    } else {
      Value index =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
      SmallVector<int64_t> cases;
      for (size_t i = 0; i < n; ++i)
        cases.push_back(int64_t(i));
      auto sw = scf::IndexSwitchOp::create(b, loc, TypeRange(b.getI32Type()),
                                           index, cases, cases.size());
      auto fill = [&](Region &region, size_t j) {
        OpBuilder rb = OpBuilder::atBlockBegin(&region.emplaceBlock());
        scf::YieldOp::create(rb, loc, param(rb, n + j, decisions[j]));
      };
      for (size_t i = 0; i < n; ++i)
        fill(sw.getCaseRegions()[i], i);
      fill(sw.getDefaultRegion(), n);
      decision = sw.getResult(0);
    }

    SmallVector<int32_t> candidates(decisions);
    if (auto values = dt.getDecisionValues())
      llvm::append_range(candidates, *values);
    b.replaceOpWithNewOp<TransformOp>(dt, decision,
                                      dt.getTransformTypeAttr(), IntegerAttr(),
                                      b.getDenseI32ArrayAttr(candidates),
                                      StringAttr());
    return success();
  }
};

} // namespace

void populateDecisionTreePatterns(RewritePatternSet &patterns) {
  patterns.add<LowerDecisionTree>(patterns.getContext());
}

} // namespace approx
