//===- TaskSkipping.cpp - the task_skipping kind --------------------------===//
//
// task_skipping(k): branch k-1 of the first scf.if / scf.index_switch of the
// knob is forced (k = 1 takes an scf.if's then-branch, 2 its else-branch).
//
//===----------------------------------------------------------------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {
namespace {

struct TaskSkipping : TransformKindPattern<TransformKind::TaskSkipping> {
  using TransformKindPattern::TransformKindPattern;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    Operation *target = findFirstAfter<scf::IfOp, scf::IndexSwitchOp>(knob, t);
    if (!target)
      return knob.emitOpError(
          "task_skipping: the knob contains no scf.if or scf.index_switch");
    int64_t branches = 2;
    if (auto sw = dyn_cast<scf::IndexSwitchOp>(target))
      branches = int64_t(sw.getNumCases()) + 1;
    for (int32_t c : k.candidates)
      if (c > branches)
        return knob.emitOpError("task_skipping value ")
               << c << " forces branch " << c - 1 << ", but the "
               << target->getName() << " has only " << branches
               << " branches";

    b.setInsertionPoint(target);
    Location loc = target->getLoc();
    auto eq = [&](int64_t c) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k.value,
                                   constI32(b, loc, c));
    };
    if (auto ifOp = dyn_cast<scf::IfOp>(target)) {
      Value cond;
      if (k.constant)
        cond = arith::ConstantIntOp::create(b, loc, b.getI1Type(),
                                            *k.constant == 1);
      else {
        Value exact = eq(0);
        Value forceThen = eq(1);
        cond = arith::SelectOp::create(b, loc, exact, ifOp.getCondition(),
                                       forceThen);
      }
      b.modifyOpInPlace(ifOp, [&] { ifOp.getConditionMutable().assign(cond); });
      return success();
    }
    auto sw = cast<scf::IndexSwitchOp>(target);
    ArrayRef<int64_t> cases = sw.getCases();
    int64_t dflt = cases.empty() ? 0 : *llvm::max_element(cases) + 1;
    auto branchValue = [&](int32_t c) {
      return size_t(c - 1) < cases.size() ? cases[c - 1] : dflt;
    };
    Value sel = sw.getArg();
    if (k.constant) {
      sel = arith::ConstantIndexOp::create(b, loc, branchValue(*k.constant));
    } else {
      for (int32_t c : k.candidates) {
        Value branch = arith::ConstantIndexOp::create(b, loc, branchValue(c));
        sel = arith::SelectOp::create(b, loc, eq(c), branch, sel);
      }
    }
    b.modifyOpInPlace(sw, [&] { sw.getArgMutable().assign(sel); });
    return success();
  }
};

} // namespace

void populateTaskSkippingPatterns(RewritePatternSet &patterns) {
  patterns.add<TaskSkipping>(patterns.getContext());
}

} // namespace approx
