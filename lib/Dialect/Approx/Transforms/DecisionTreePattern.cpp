//===- DecisionTreePattern.cpp - decision tree -> knob value --------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {
namespace {

/// Branch index = number of thresholds <= state; the branch's decision (an
/// scf.index_switch over constants, or, for runtime reads, the decision all
/// branches agree on or selects among them) drives an approx.transform of
/// the same kind.
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

    // Branch index = number of thresholds <= state, at `pb`'s position.
    auto branchIndex = [&](OpBuilder &pb) {
      Value count = constI32(pb, loc, 0);
      for (size_t i = 0; i < n; ++i) {
        Value ge = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::sge,
                                         dt.getState(),
                                         param(pb, i, thresholds[i]));
        Value one = arith::ExtUIOp::create(pb, loc, pb.getI32Type(), ge);
        count = arith::AddIOp::create(pb, loc, count, one);
      }
      return count;
    };

    b.setInsertionPoint(dt);
    Value decision;
    if (dt.getRuntimeParams()) {
      // Runtime-table builds read the decisions first, and selects pick
      // the branch's: nothing branches on the state (a switch on it
      // mispredicts when the state varies from call to call: pagerank's
      // in-degrees). With two thresholds or more, an scf.if skips the
      // thresholds and the selects when the decisions all agree (the exact
      // configuration among others): it tests loads the optimiser hoists
      // out of a loop, so it never changes direction while the loop runs.
      // One threshold is one select, as cheap as that test.
      SmallVector<Value> read;
      for (size_t j = 0; j <= n; ++j)
        read.push_back(param(b, n + j, decisions[j]));
      auto select = [&](OpBuilder &sb) {
        Value count = branchIndex(sb);
        Value chosen = read[0];
        for (size_t j = 1; j <= n; ++j) {
          Value here = arith::CmpIOp::create(sb, loc, arith::CmpIPredicate::eq,
                                             count, constI32(sb, loc, int32_t(j)));
          chosen = arith::SelectOp::create(sb, loc, here, read[j], chosen);
        }
        return chosen;
      };
      if (n < 2) {
        decision = select(b);
      } else {
        Value agree = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            read[1], read[0]);
        for (size_t j = 2; j <= n; ++j)
          agree = arith::AndIOp::create(
              b, loc, agree,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, read[j],
                                    read[0]));
        auto ifOp = scf::IfOp::create(
            b, loc, agree,
            [&](OpBuilder &tb, Location l) {
              scf::YieldOp::create(tb, l, read[0]);
            },
            [&](OpBuilder &eb, Location l) {
              scf::YieldOp::create(eb, l, select(eb));
            });
        decision = ifOp.getResult(0);
      }
    } else {
      // Baked decisions are constants in the cases of a switch.
      Value index =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), branchIndex(b));
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
