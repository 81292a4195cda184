//===- DecisionTreePattern.cpp - decision tree -> knob value --------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {
namespace {

/// Branch index = number of thresholds <= state; an scf.index_switch yields
/// the branch's decision, which drives an approx.transform of the same kind.
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
    Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
    SmallVector<int64_t> cases;
    for (size_t i = 0; i < n; ++i)
      cases.push_back(int64_t(i));
    // Runtime-table builds read every decision before the switch: a tree's
    // reads are then unconditional within it, so the optimiser can hoist
    // them out of a loop together (measured on pagerank: faster than reads
    // in the cases, and than selects in place of the switch, which make
    // every read and compare sit on the path of each call). Baked decisions
    // are constants in the cases.
    SmallVector<Value> read;
    if (dt.getRuntimeParams())
      for (size_t j = 0; j <= n; ++j)
        read.push_back(param(b, n + j, decisions[j]));
    auto sw = scf::IndexSwitchOp::create(b, loc, TypeRange(b.getI32Type()),
                                         index, cases, cases.size());
    auto fill = [&](Region &region, size_t j) {
      OpBuilder rb = OpBuilder::atBlockBegin(&region.emplaceBlock());
      scf::YieldOp::create(rb, loc,
                           read.empty() ? param(rb, n + j, decisions[j])
                                        : read[j]);
    };
    for (size_t i = 0; i < n; ++i)
      fill(sw.getCaseRegions()[i], i);
    fill(sw.getDefaultRegion(), n);

    SmallVector<int32_t> candidates(decisions);
    if (auto values = dt.getDecisionValues())
      llvm::append_range(candidates, *values);
    b.replaceOpWithNewOp<TransformOp>(dt, sw.getResult(0),
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
