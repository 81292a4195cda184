//===- UpliftWhileToFor.cpp - counted scf.while -> scf.for ----------------===//
#include "approx/Frontend/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace approx {
#define GEN_PASS_DEF_UPLIFTWHILETOFOR
#define GEN_PASS_DEF_LOWERNSWFOR
#include "approx/Frontend/Passes.h.inc"
} // namespace approx

using namespace mlir;

/// On an uplifted scf.for: its increment was `nsw` in the source, for this
/// step value.
static constexpr llvm::StringLiteral kNswStepAttr = "approx.nsw_step";

namespace {

/// A counted loop: `while (iv < ub) { ...; iv += step; }`.
struct CountedLoop {
  unsigned iv;  // position of the induction variable among the iter args
  Value ub;     // loop-invariant bound
  Value step;   // positive constant
  bool nsw;     // the increment cannot overflow (C's signed i++)
};

bool definedOutside(Value v, Operation *loop) {
  Operation *def = v.getDefiningOp();
  Block *block = def ? def->getBlock() : cast<BlockArgument>(v).getOwner();
  return !loop->isAncestor(block->getParentOp()) &&
         block->getParentOp() != loop;
}

std::optional<CountedLoop> match(scf::WhileOp w) {
  Block &before = w.getBefore().front();
  Block &after = w.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  // The before region only compares; every iteration argument is forwarded
  // unchanged and in order.
  if (&before.front() != cond.getCondition().getDefiningOp() ||
      std::next(before.begin()) != Block::iterator(cond))
    return std::nullopt;
  if (cond.getArgs() != ValueRange(before.getArguments()))
    return std::nullopt;
  auto cmp = cond.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  Value iv, ub;
  if (cmp.getPredicate() == arith::CmpIPredicate::slt) {
    iv = cmp.getLhs();
    ub = cmp.getRhs();
  } else if (cmp.getPredicate() == arith::CmpIPredicate::sgt) {
    iv = cmp.getRhs();
    ub = cmp.getLhs();
  } else {
    return std::nullopt;
  }
  auto ivArg = dyn_cast<BlockArgument>(iv);
  if (!ivArg || ivArg.getOwner() != &before || !definedOutside(ub, w) ||
      !isa<IntegerType>(iv.getType()))
    return std::nullopt;
  unsigned pos = ivArg.getArgNumber();
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  auto add = yield.getOperand(pos).getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  Value bodyIv = after.getArgument(pos);
  Value step = add.getLhs() == bodyIv ? add.getRhs()
               : add.getRhs() == bodyIv ? add.getLhs()
                                        : Value();
  APInt stepValue;
  if (!step || !matchPattern(step, m_ConstantInt(&stepValue)) ||
      !stepValue.isStrictlyPositive())
    return std::nullopt;
  bool nsw = false;
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(
          add.getOperation()))
    nsw = flags.hasNoSignedWrap();
  return CountedLoop{pos, ub, step, nsw};
}

void uplift(scf::WhileOp w, const CountedLoop &loop) {
  OpBuilder b(w);
  Location loc = w.getLoc();
  Block &after = w.getAfter().front();
  Value lb = w.getInits()[loop.iv];
  // The step constant may live inside the loop; then materialise it outside.
  Type ivType = lb.getType();
  Value step = loop.step;
  if (!definedOutside(step, w)) {
    APInt stepValue;
    matchPattern(loop.step, m_ConstantInt(&stepValue));
    step = arith::ConstantOp::create(
        b, loc, IntegerAttr::get(ivType, stepValue.getSExtValue()));
  }

  SmallVector<Value> inits;
  for (auto [i, v] : llvm::enumerate(w.getInits()))
    if (i != loop.iv)
      inits.push_back(v);
  auto forOp = scf::ForOp::create(b, loc, lb, loop.ub, step, inits);
  // scf.for has no overflow flags; remember the source's for the lowering.
  if (loop.nsw)
    forOp->setAttr(kNswStepAttr, cast<arith::ConstantOp>(
                                     step.getDefiningOp()).getValue());
  Block *body = forOp.getBody();
  IRMapping map;
  unsigned k = 0;
  for (auto [i, arg] : llvm::enumerate(after.getArguments()))
    map.map(arg, i == loop.iv ? forOp.getInductionVar()
                              : forOp.getRegionIterArgs()[k++]);
  OpBuilder bb = OpBuilder::atBlockBegin(body);
  if (!body->empty())
    body->back().erase(); // the implicit scf.yield of the builder
  bb.setInsertionPointToEnd(body);
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  for (Operation &op : after.without_terminator())
    bb.clone(op, map);
  SmallVector<Value> next;
  for (auto [i, v] : llvm::enumerate(yield.getOperands()))
    if (i != loop.iv)
      next.push_back(map.lookupOrDefault(v));
  scf::YieldOp::create(bb, loc, next);

  // Results: the carried values, and the induction variable's exit value
  // lb + ceildiv(max(ub - lb, 0), step) * step.
  b.setInsertionPointAfter(forOp);
  SmallVector<Value> results;
  k = 0;
  for (unsigned i = 0; i < w.getNumResults(); ++i) {
    if (i != loop.iv) {
      results.push_back(forOp.getResult(k++));
      continue;
    }
    if (w.getResult(i).use_empty()) {
      results.push_back(Value());
      continue;
    }
    Value zero = arith::ConstantOp::create(b, loc, IntegerAttr::get(ivType, 0));
    Value span = arith::SubIOp::create(b, loc, loop.ub, lb);
    Value positive = arith::MaxSIOp::create(b, loc, span, zero);
    Value trips = arith::CeilDivSIOp::create(b, loc, positive, step);
    Value advance = arith::MulIOp::create(b, loc, trips, step);
    results.push_back(arith::AddIOp::create(b, loc, lb, advance));
  }
  for (auto [old, repl] : llvm::zip(w.getResults(), results))
    if (repl)
      old.replaceAllUsesWith(repl);
  w.erase();
}

struct UpliftWhileToForPass
    : approx::impl::UpliftWhileToForBase<UpliftWhileToForPass> {
  void runOnOperation() override {
    SmallVector<scf::WhileOp> loops;
    getOperation().walk([&](scf::WhileOp w) { loops.push_back(w); });
    // Post-order: inner loops first; uplifting one never invalidates another.
    for (scf::WhileOp w : loops)
      if (std::optional<CountedLoop> loop = match(w))
        uplift(w, *loop);
  }
};

/// scf.for with an unchanged `approx.nsw_step` -> scf.while whose increment
/// keeps `nsw` (scf-to-cf would drop it, and LLVM needs it to widen the
/// induction variable). Perforated loops (another step) keep scf.for.
struct LowerNswForPass : approx::impl::LowerNswForBase<LowerNswForPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp f) {
      if (f->hasAttr(kNswStepAttr))
        loops.push_back(f);
    });
    for (scf::ForOp f : loops) {
      Attribute original = f->getAttr(kNswStepAttr);
      f->removeAttr(kNswStepAttr);
      APInt step;
      if (!matchPattern(f.getStep(), m_ConstantInt(&step)) ||
          IntegerAttr::get(f.getStep().getType(), step) != original)
        continue;
      OpBuilder b(f);
      Location loc = f.getLoc();
      SmallVector<Value> inits{f.getLowerBound()};
      llvm::append_range(inits, f.getInitArgs());
      SmallVector<Type> types = llvm::to_vector(ValueRange(inits).getTypes());
      auto w = scf::WhileOp::create(b, loc, types, inits);
      SmallVector<Location> locs(types.size(), loc);
      Block *before = b.createBlock(&w.getBefore(), {}, types, locs);
      Value cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         before->getArgument(0),
                                         f.getUpperBound());
      scf::ConditionOp::create(b, loc, cond, before->getArguments());
      Block *after = b.createBlock(&w.getAfter(), {}, types, locs);
      Block *body = f.getBody();
      auto yield = cast<scf::YieldOp>(body->getTerminator());
      b.setInsertionPoint(yield);
      Value next = arith::AddIOp::create(b, loc, body->getArgument(0),
                                         f.getStep(),
                                         arith::IntegerOverflowFlags::nsw);
      SmallVector<Value> nextValues{next};
      llvm::append_range(nextValues, yield.getOperands());
      scf::YieldOp::create(b, loc, nextValues);
      yield.erase();
      after->getOperations().splice(after->end(), body->getOperations());
      for (auto [from, to] :
           llvm::zip(body->getArguments(), after->getArguments()))
        from.replaceAllUsesWith(to);
      f.replaceAllUsesWith(w.getResults().drop_front());
      f.erase();
    }
  }
};

} // namespace
