//===- LoopTransforms.cpp - the loop kinds of approx.transform ------------===//
//
// Every loop kind acts on the knob's outermost loop and divides its work by
// k (0 and 1 are exact): perforation keeps every k-th iteration, truncation
// keeps the first or last ceil(n/k), random skipping keeps each iteration
// with probability 1/k.
//
//===----------------------------------------------------------------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace approx {
namespace {

/// The knob's outermost loop, or a located error naming the kind.
template <typename... LoopTs>
FailureOr<Operation *> targetLoop(KnobOp knob, TransformOp t) {
  Operation *loop = findFirstAfter<scf::ForOp, scf::WhileOp>(knob, t);
  StringRef kind = stringifyTransformKind(t.getTransformType());
  if (!loop)
    return knob.emitOpError(kind)
           << ": the knob contains no scf.for or scf.while";
  if (!isa<LoopTs...>(loop))
    return loop->emitOpError(kind)
           << " needs an scf.for (a loop with a known trip count)";
  return loop;
}

//===----------------------------------------------------------------------===//
// loop_perforate: step * k
//===----------------------------------------------------------------------===//

/// In an scf.while: the op advancing the induction variable (an iteration
/// argument forwarded to the body and advanced there by a loop-invariant
/// amount with arith.addi/subi) and the index of its increment operand.
FailureOr<std::pair<Operation *, unsigned>> whileIncrement(scf::WhileOp w) {
  Block &before = w.getBefore().front();
  Block &after = w.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  auto invariant = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return !w->isAncestor(v.getParentBlock()->getParentOp());
    return !w->isAncestor(def) || matchPattern(v, m_Constant());
  };
  auto cmp = cond.getCondition().getDefiningOp<arith::CmpIOp>();
  Operation *chosen = nullptr;
  unsigned chosenOperand = 0;
  bool chosenInCondition = false;
  for (unsigned p = 0; p < before.getNumArguments(); ++p) {
    Value iv = before.getArgument(p);
    for (auto [q, forwarded] : llvm::enumerate(cond.getArgs())) {
      if (forwarded != iv || p >= yield.getNumOperands())
        continue;
      Value bodyIv = after.getArgument(q);
      Operation *def = yield.getOperand(p).getDefiningOp();
      unsigned operand = 0;
      if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
        if (add.getLhs() == bodyIv && invariant(add.getRhs()))
          operand = 1;
        else if (add.getRhs() == bodyIv && invariant(add.getLhs()))
          operand = 0;
        else
          continue;
      } else if (auto sub = dyn_cast_or_null<arith::SubIOp>(def)) {
        if (sub.getLhs() != bodyIv || !invariant(sub.getRhs()))
          continue;
        operand = 1;
      } else {
        continue;
      }
      bool inCondition = cmp && (cmp.getLhs() == iv || cmp.getRhs() == iv);
      if (inCondition && (cmp.getPredicate() == arith::CmpIPredicate::eq ||
                          cmp.getPredicate() == arith::CmpIPredicate::ne))
        return w.emitOpError("loop_perforate: the exit test compares the "
                             "induction variable with ==/!=, so a larger step "
                             "could skip the bound; use </<=/>/>=");
      if (!chosen || (inCondition && !chosenInCondition)) {
        chosen = def;
        chosenOperand = operand;
        chosenInCondition = inCondition;
      }
    }
  }
  if (!chosen)
    return w.emitOpError(
        "loop_perforate: cannot find the induction variable of this "
        "scf.while (an iteration argument advanced by a loop-invariant "
        "amount with arith.addi/arith.subi)");
  return std::make_pair(chosen, chosenOperand);
}

struct LoopPerforate : TransformKindPattern<TransformKind::LoopPerforate> {
  using TransformKindPattern::TransformKindPattern;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    FailureOr<Operation *> loop = targetLoop<scf::ForOp, scf::WhileOp>(knob, t);
    if (failed(loop))
      return failure();
    Location loc = (*loop)->getLoc();
    b.setInsertionPoint(*loop);
    Value factor = divisor(b, loc, k); // loop-invariant: before the loop
    if (auto forOp = dyn_cast<scf::ForOp>(*loop)) {
      Value step = forOp.getStep();
      Value scaled = arith::MulIOp::create(
          b, loc, step, castTo(b, loc, factor, step.getType()));
      b.modifyOpInPlace(forOp,
                        [&] { forOp.getStepMutable().assign(scaled); });
      return success();
    }
    auto inc = whileIncrement(cast<scf::WhileOp>(*loop));
    if (failed(inc))
      return failure();
    auto [op, operand] = *inc;
    b.setInsertionPoint(op);
    Value amount = op->getOperand(operand);
    Value scaled = arith::MulIOp::create(
        b, loc, amount, castTo(b, loc, factor, amount.getType()));
    b.modifyOpInPlace(op, [&] { op->setOperand(operand, scaled); });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// loop_truncate_end / loop_truncate_start: keep ceil(n/k) iterations
//===----------------------------------------------------------------------===//

/// Sets the bounds of `forOp` so that it runs the first (or the last)
/// ceil(n/k) of its n iterations.
LogicalResult truncate(PatternRewriter &b, KnobOp knob, TransformOp t,
                       const KnobValue &k, bool keepFirst) {
  FailureOr<Operation *> loop = targetLoop<scf::ForOp>(knob, t);
  if (failed(loop))
    return failure();
  auto forOp = cast<scf::ForOp>(*loop);
  if (forOp.getUnsignedCmp())
    return forOp.emitOpError(stringifyTransformKind(t.getTransformType()))
           << " does not support loops with unsigned bounds";
  Location loc = forOp.getLoc();
  b.setInsertionPoint(forOp);
  Value lb = forOp.getLowerBound(), ub = forOp.getUpperBound(),
        step = forOp.getStep();
  Type type = lb.getType();
  Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), zero);
  Value n = arith::CeilDivSIOp::create(b, loc, span, step);
  Value keep = arith::CeilDivSIOp::create(
      b, loc, n, castTo(b, loc, divisor(b, loc, k), type));
  if (keepFirst) {
    Value end = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, keep, step));
    Value bounded = arith::MinSIOp::create(b, loc, end, ub);
    b.modifyOpInPlace(forOp,
                      [&] { forOp.getUpperBoundMutable().assign(bounded); });
  } else {
    Value skipped = arith::SubIOp::create(b, loc, n, keep);
    Value start = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, skipped, step));
    b.modifyOpInPlace(forOp,
                      [&] { forOp.getLowerBoundMutable().assign(start); });
  }
  return success();
}

struct LoopTruncateEnd : TransformKindPattern<TransformKind::LoopTruncateEnd> {
  using TransformKindPattern::TransformKindPattern;
  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    return truncate(b, knob, t, k, /*keepFirst=*/true);
  }
};

struct LoopTruncateStart
    : TransformKindPattern<TransformKind::LoopTruncateStart> {
  using TransformKindPattern::TransformKindPattern;
  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    return truncate(b, knob, t, k, /*keepFirst=*/false);
  }
};

//===----------------------------------------------------------------------===//
// loop_random_skip: each iteration runs with probability 1/k
//===----------------------------------------------------------------------===//

/// splitmix64's finaliser of (iv * golden + seed): a well-mixed 64-bit hash
/// of the iteration, so that `hash % k == 0` holds for ~1/k of them.
Value mix(OpBuilder &b, Location loc, Value iv, uint64_t seed) {
  auto c = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), int64_t(v));
  };
  Value x = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, iv, c(0x9E3779B97F4A7C15ull)),
      c(seed));
  auto xorShift = [&](Value v, unsigned s) {
    return arith::XOrIOp::create(b, loc, v,
                                 arith::ShRUIOp::create(b, loc, v, c(s)));
  };
  x = arith::MulIOp::create(b, loc, xorShift(x, 30), c(0xBF58476D1CE4E5B9ull));
  x = arith::MulIOp::create(b, loc, xorShift(x, 27), c(0x94D049BB133111EBull));
  return xorShift(x, 31);
}

struct LoopRandomSkip : TransformKindPattern<TransformKind::LoopRandomSkip> {
  using TransformKindPattern::TransformKindPattern;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    FailureOr<Operation *> loop = targetLoop<scf::ForOp>(knob, t);
    if (failed(loop))
      return failure();
    auto forOp = cast<scf::ForOp>(*loop);
    Location loc = forOp.getLoc();
    b.setInsertionPoint(forOp);
    Value k64 = arith::ExtSIOp::create(b, loc, b.getI64Type(),
                                       divisor(b, loc, k));

    Block *body = forOp.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    b.setInsertionPointToStart(body);
    Value iv = forOp.getInductionVar();
    Value iv64 = iv;
    if (iv.getType().isIndex())
      iv64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), iv);
    else if (iv.getType().getIntOrFloatBitWidth() < 64)
      iv64 = arith::ExtSIOp::create(b, loc, b.getI64Type(), iv);
    Value hash = mix(b, loc, iv64, uint64_t(knob.getId()) + 1);
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
    Value run = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, hash, k64), zero);
    auto ifOp = scf::IfOp::create(b, loc, forOp.getResultTypes(), run,
                                  /*withElseRegion=*/true);
    // The iteration's work moves into the then-branch; skipping passes the
    // iteration arguments through.
    Block *then = ifOp.thenBlock();
    if (!then->empty() && then->back().hasTrait<OpTrait::IsTerminator>())
      b.eraseOp(&then->back());
    auto first = std::next(Block::iterator(ifOp));
    then->getOperations().splice(then->end(), body->getOperations(), first,
                                 Block::iterator(yield));
    b.setInsertionPointToEnd(then);
    scf::YieldOp::create(b, loc, yield.getOperands());
    Block *otherwise = ifOp.elseBlock();
    if (!otherwise->empty() &&
        otherwise->back().hasTrait<OpTrait::IsTerminator>())
      b.eraseOp(&otherwise->back());
    b.setInsertionPointToEnd(otherwise);
    scf::YieldOp::create(b, loc, forOp.getRegionIterArgs());
    b.modifyOpInPlace(yield, [&] { yield->setOperands(ifOp.getResults()); });
    return success();
  }
};

} // namespace

void populateLoopTransformPatterns(RewritePatternSet &patterns) {
  patterns.add<LoopPerforate, LoopTruncateEnd, LoopTruncateStart,
               LoopRandomSkip>(patterns.getContext());
}

} // namespace approx
