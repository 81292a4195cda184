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
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

//===----------------------------------------------------------------------===//
// Overflow-free arithmetic on induction variables: a perforated step or
// increment must never wrap (an i8 loop perforated by 100, or a step times
// the knob value past 2^31, gave a zero or negative step: no iterations or
// an endless loop).
//===----------------------------------------------------------------------===//

/// `v` (an integer or index) widened to i128, signed or unsigned.
Value toI128(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  if (v.getType().isIndex())
    v = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  Type i128 = b.getIntegerType(128);
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, i128, v);
  return arith::ExtSIOp::create(b, loc, i128, v);
}

/// The i128 value `wide` clamped to the range of `type` (still i128).
Value clampToRange(OpBuilder &b, Location loc, Value wide, Type type,
                   bool isUnsigned) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  Type i128 = b.getIntegerType(128);
  auto c = [&](const APInt &v) -> Value {
    APInt wideV = isUnsigned ? v.zext(128) : v.sext(128);
    return arith::ConstantOp::create(b, loc, i128, IntegerAttr::get(i128, wideV));
  };
  APInt lo = isUnsigned ? APInt::getZero(width) : APInt::getSignedMinValue(width);
  APInt hi = isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
  return arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, wide, c(hi)), c(lo));
}

/// An i128 value within the range of `type`, narrowed to it.
Value narrowTo(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isIndex())
    return arith::IndexCastOp::create(
        b, loc, type, arith::TruncIOp::create(b, loc, b.getI64Type(), v));
  return arith::TruncIOp::create(b, loc, type, v);
}

/// `forOp` itself, or, when its induction variable is an integer narrower
/// than 64 bits, the same loop rebuilt on i64 (bounds sign- or
/// zero-extended as its comparison is signed or unsigned; the body sees the
/// variable truncated back): bound arithmetic on it cannot overflow there.
scf::ForOp widenToI64(PatternRewriter &b, scf::ForOp forOp) {
  Type type = forOp.getStep().getType();
  auto it = dyn_cast<IntegerType>(type);
  if (!it || it.getWidth() >= 64)
    return forOp;
  Location loc = forOp.getLoc();
  bool isUnsigned = forOp.getUnsignedCmp();
  Type i64 = b.getI64Type();
  b.setInsertionPoint(forOp);
  auto widen = [&](Value v) -> Value {
    if (isUnsigned)
      return arith::ExtUIOp::create(b, loc, i64, v);
    return arith::ExtSIOp::create(b, loc, i64, v);
  };
  Value lb = widen(forOp.getLowerBound());
  Value ub = widen(forOp.getUpperBound());
  Value step = widen(forOp.getStep());
  auto wide = scf::ForOp::create(
      b, loc, lb, ub, step, forOp.getInitArgs(),
      [](OpBuilder &, Location, Value, ValueRange) {}, isUnsigned);
  b.setInsertionPointToStart(wide.getBody());
  SmallVector<Value> args{
      arith::TruncIOp::create(b, loc, type, wide.getInductionVar())};
  llvm::append_range(args, wide.getRegionIterArgs());
  b.mergeBlocks(forOp.getBody(), wide.getBody(), args);
  b.replaceOp(forOp, wide.getResults());
  b.setInsertionPoint(wide);
  return wide;
}

/// Perforates an scf.for: step * k. A loop on an integer narrower than 64
/// bits runs on i64 (widenToI64), where neither the step nor the increment
/// can overflow; a 64-bit loop whose step * k overflows runs its first
/// iteration only (what any step past the span does).
void perforateFor(PatternRewriter &b, scf::ForOp forOp, Value factor) {
  Location loc = forOp.getLoc();
  bool isUnsigned = forOp.getUnsignedCmp();
  bool narrow = !forOp.getStep().getType().isIndex() &&
                forOp.getStep().getType().getIntOrFloatBitWidth() < 64;
  forOp = widenToI64(b, forOp);
  Type type = forOp.getStep().getType();
  if (narrow) {
    Value step = arith::MulIOp::create(b, loc, forOp.getStep(),
                                       castTo(b, loc, factor, type));
    b.modifyOpInPlace(forOp, [&] { forOp.getStepMutable().assign(step); });
    return;
  }
  Value step = forOp.getStep(), lb = forOp.getLowerBound(),
        ub = forOp.getUpperBound();
  Value stepWide = toI128(b, loc, step, isUnsigned);
  Value kWide = toI128(b, loc, factor, false);
  Value exact = arith::MulIOp::create(b, loc, stepWide, kWide);
  Value clamped = clampToRange(b, loc, exact, type, isUnsigned);
  Value overflow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, exact, clamped);
  Value scaled = narrowTo(b, loc, clamped, type);
  Value one = arith::ConstantOp::create(b, loc, type, b.getOneAttr(type));
  Value next = arith::AddIOp::create(b, loc, lb, one);
  Value firstOnly =
      isUnsigned ? Value(arith::MinUIOp::create(b, loc, ub, next))
                 : Value(arith::MinSIOp::create(b, loc, ub, next));
  Value newStep = arith::SelectOp::create(b, loc, overflow, step, scaled);
  Value newUb = arith::SelectOp::create(b, loc, overflow, firstOnly, ub);
  b.modifyOpInPlace(forOp, [&] {
    forOp.getStepMutable().assign(newStep);
    forOp.getUpperBoundMutable().assign(newUb);
  });
}

/// Perforates the increment `op` (arith.addi/subi of the induction variable
/// and the amount at `operand`) of an scf.while: the amount times k, and the
/// new induction variable saturated at the bounds of its type, so the
/// bound test ends the loop instead of the value wrapping around.
void perforateWhileIncrement(PatternRewriter &b, Operation *op,
                             unsigned operand, Value factor, bool isUnsigned) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  Value iv = op->getOperand(1 - operand), amount = op->getOperand(operand);
  Type type = iv.getType();
  Value amountWide = toI128(b, loc, amount, isUnsigned);
  Value kWide = toI128(b, loc, factor, false);
  Value scaledWide = arith::MulIOp::create(b, loc, amountWide, kWide);
  Value ivWide = toI128(b, loc, iv, isUnsigned);
  Value nextWide =
      isa<arith::AddIOp>(op)
          ? Value(arith::AddIOp::create(b, loc, ivWide, scaledWide))
          : Value(arith::SubIOp::create(b, loc, ivWide, scaledWide));
  Value next =
      narrowTo(b, loc, clampToRange(b, loc, nextWide, type, isUnsigned), type);
  b.replaceOp(op, next);
}

//===----------------------------------------------------------------------===//
// loop_perforate of a linalg sum reduction: every k-th element, rescaled
//===----------------------------------------------------------------------===//

/// The reduction dimension of a linalg op summing over one dimension (its
/// payload yields arith.addf of the output's block argument), or a located
/// error.
FailureOr<unsigned> sumReductionDim(linalg::GenericOp op) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  if (dims.size() != 1 || op.getNumDpsInits() != 1)
    return op.emitOpError("loop_perforate on linalg needs exactly one "
                          "reduction dimension and one output");
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  Value acc = op.getBody()->getArguments().back();
  if (!add || (add.getLhs() != acc && add.getRhs() != acc))
    return op.emitOpError("loop_perforate on linalg needs a floating-point "
                          "sum (the payload yields arith.addf of the "
                          "accumulator)");
  return dims[0];
}

/// The sum over every k-th index of the reduction dimension, scaled by
/// n / ceil(n/k): init + scale * sum(sampled inputs).
LogicalResult perforateReduction(PatternRewriter &b, linalg::GenericOp op,
                                 unsigned dim, const KnobValue &k) {
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  // n: the size of `dim` in the first input that indexes it directly.
  Value n;
  SmallVector<std::pair<OpOperand *, unsigned>> sliced;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    for (auto [pos, e] : llvm::enumerate(map.getResults())) {
      if (!e.isFunctionOfDim(dim))
        continue;
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || !isa<RankedTensorType>(in->get().getType()))
        return op.emitOpError("loop_perforate on linalg needs the inputs to "
                              "index the reduction dimension directly");
      sliced.push_back({in, unsigned(pos)});
      if (!n)
        n = tensor::DimOp::create(b, loc, in->get(), pos);
    }
  }
  if (!n)
    return op.emitOpError("loop_perforate on linalg: no input is indexed by "
                          "the reduction dimension");
  Value kIdx = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                          divisor(b, loc, k));
  Value count = arith::CeilDivSIOp::create(b, loc, n, kIdx);
  for (auto [in, pos] : sliced) {
    auto type = cast<RankedTensorType>(in->get().getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, in->get());
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    sizes[pos] = count;
    strides[pos] = kIdx;
    Value slice = tensor::ExtractSliceOp::create(b, loc, in->get(), offsets,
                                                 sizes, strides);
    b.modifyOpInPlace(op, [&] { in->set(slice); });
  }
  // The sampled sum goes into zeros; the original init is added rescaled.
  OpOperand &init = op.getDpsInitsMutable()[0];
  Value original = init.get();
  auto outType = cast<RankedTensorType>(original.getType());
  Type elem = outType.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  Value zeros = filled(b, loc, zero, emptyLike(b, loc, original, elem));
  b.modifyOpInPlace(op, [&] { init.set(zeros); });
  b.setInsertionPointAfter(op);
  auto toFloat = [&](Value idx) {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), idx);
    return arith::SIToFPOp::create(b, loc, elem, i);
  };
  Value scale = arith::DivFOp::create(b, loc, toFloat(n), toFloat(count));
  unsigned rank = outType.getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  Value outEmpty = emptyLike(b, loc, original, elem);
  auto rescaled = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{op.getResult(0), original},
      ValueRange{outEmpty}, ArrayRef<AffineMap>{id, id, id},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value s = arith::MulFOp::create(nb, l, args[0], scale);
        linalg::YieldOp::create(nb, l,
                                Value(arith::AddFOp::create(nb, l, s, args[1])));
      });
  b.replaceAllUsesExcept(op.getResult(0), rescaled.getResult(0), rescaled);
  return success();
}

/// The first scf loop or linalg reduction of the knob.
Operation *perforationTarget(KnobOp knob, TransformOp t) {
  return findFirstAfter(knob, t, isPerforationTarget);
}

/// For a work divisor known only at run time (a runtime-table build, a
/// decision tree): `if (factor == 1) { the loop as written } else { loop }`,
/// so the exact configuration runs the loop with its own constant step
/// (unrolled and vectorised as in the exact build) and only the else branch
/// is transformed. `loop`'s results are replaced by the if's.
void versionOnExact(PatternRewriter &b, Operation *loop, Value factor) {
  Location loc = loop->getLoc();
  Value exact = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, factor,
                                      constI32(b, loc, 1));
  Operation *elseYield = nullptr;
  auto ifOp = scf::IfOp::create(
      b, loc, exact,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, tb.clone(*loop)->getResults());
      },
      [&](OpBuilder &eb, Location l) {
        elseYield = scf::YieldOp::create(eb, l, loop->getResults());
      });
  loop->replaceUsesWithIf(ifOp.getResults(), [&](OpOperand &use) {
    return use.getOwner() != elseYield;
  });
  loop->moveBefore(elseYield);
  b.setInsertionPoint(loop);
}

struct LoopPerforate : TransformKindPattern<TransformKind::LoopPerforate> {
  using TransformKindPattern::TransformKindPattern;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    if (auto lop = dyn_cast_or_null<linalg::LinalgOp>(perforationTarget(knob, t))) {
      b.setInsertionPoint(lop);
      FailureOr<linalg::GenericOp> generic =
          asGeneric(b, lop, "loop_perforate");
      if (failed(generic))
        return failure();
      FailureOr<unsigned> dim = sumReductionDim(*generic);
      if (failed(dim))
        return failure();
      return perforateReduction(b, *generic, *dim, k);
    }
    FailureOr<Operation *> loop = targetLoop<scf::ForOp, scf::WhileOp>(knob, t);
    if (failed(loop))
      return failure();
    Location loc = (*loop)->getLoc();
    b.setInsertionPoint(*loop);
    Value factor = divisor(b, loc, k); // loop-invariant: before the loop
    if (!k.constant)
      versionOnExact(b, *loop, factor);
    if (auto forOp = dyn_cast<scf::ForOp>(*loop)) {
      perforateFor(b, forOp, factor);
      return success();
    }
    auto w = cast<scf::WhileOp>(*loop);
    auto inc = whileIncrement(w);
    if (failed(inc))
      return failure();
    auto [op, operand] = *inc;
    auto cond = cast<scf::ConditionOp>(w.getBefore().front().getTerminator());
    auto cmp = cond.getCondition().getDefiningOp<arith::CmpIOp>();
    bool isUnsigned = cmp && (cmp.getPredicate() == arith::CmpIPredicate::ult ||
                              cmp.getPredicate() == arith::CmpIPredicate::ule ||
                              cmp.getPredicate() == arith::CmpIPredicate::ugt ||
                              cmp.getPredicate() == arith::CmpIPredicate::uge);
    perforateWhileIncrement(b, op, operand, factor, isUnsigned);
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
  // The trip-count arithmetic (ub - lb, lb + keep * step) is done in i128:
  // it cannot wrap for any loop type (a 64-bit span past 2^63 did), and the
  // new bound lies within [lb, ub], so it narrows back exactly.
  Location loc = forOp.getLoc();
  b.setInsertionPoint(forOp);
  Value lb = forOp.getLowerBound(), ub = forOp.getUpperBound(),
        step = forOp.getStep();
  Type type = lb.getType();
  Value lbW = toI128(b, loc, lb, false), ubW = toI128(b, loc, ub, false),
        stepW = toI128(b, loc, step, false);
  Type i128 = b.getIntegerType(128);
  Value zero = arith::ConstantOp::create(b, loc, i128, b.getZeroAttr(i128));
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ubW, lbW), zero);
  Value n = arith::CeilDivSIOp::create(b, loc, span, stepW);
  Value keep = arith::CeilDivSIOp::create(
      b, loc, n, toI128(b, loc, divisor(b, loc, k), false));
  if (keepFirst) {
    Value end = arith::AddIOp::create(
        b, loc, lbW, arith::MulIOp::create(b, loc, keep, stepW));
    Value bounded =
        narrowTo(b, loc, arith::MinSIOp::create(b, loc, end, ubW), type);
    b.modifyOpInPlace(forOp,
                      [&] { forOp.getUpperBoundMutable().assign(bounded); });
  } else {
    Value skipped = arith::SubIOp::create(b, loc, n, keep);
    Value start = narrowTo(
        b, loc,
        arith::AddIOp::create(b, loc, lbW,
                              arith::MulIOp::create(b, loc, skipped, stepW)),
        type);
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

bool isPerforationTarget(Operation *op) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  return isa<scf::ForOp, scf::WhileOp>(op) ||
         (lop && lop.getNumReductionLoops() > 0);
}

void populateLoopTransformPatterns(RewritePatternSet &patterns) {
  patterns.add<LoopPerforate, LoopTruncateEnd, LoopTruncateStart,
               LoopRandomSkip>(patterns.getContext());
}

} // namespace approx
