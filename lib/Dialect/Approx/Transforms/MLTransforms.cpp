//===- MLTransforms.cpp - the transform kinds on linalg / tensor code -----===//
//
// decode_quantize(k): every f32 linalg.matmul / linalg.batch_matmul of the
//   knob computes with int8 operands and i32 accumulation: k = 1 scales the
//   activations per row (at run time) and the weights per output channel,
//   k = 2 both per tensor, k = 3 as 1 but only where the second operand is a
//   weight (a function argument or a constant, through reshapes, transposes
//   and copies): products of two activations (attention scores) stay f32;
//   constant weights are quantized at compile time.
// precision_reduce(k): every f32 linalg op of the knob reads its f32 inputs
//   rounded to f16 (k = 1) or bf16 (k = 2), accumulating in f32; k = 3 as 2
//   but only the contractions (matmuls and batch matmuls): normalizations,
//   softmax and activations stay f32.
// (loop_perforate of a linalg reduction is in LoopTransforms.cpp.)
//
// A dynamic knob value dispatches with scf.index_switch over the candidate
// values, the exact op being the default case.
//
//===----------------------------------------------------------------------===//
#include "TransformSupport.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace approx {
namespace {

using utils::IteratorType;

/// The ops of kind OpT in the knob's region, in program order.
template <typename OpT>
SmallVector<Operation *> opsInKnob(KnobOp knob, TransformOp t) {
  SmallVector<Operation *> ops;
  for (Operation *top : regionOps(knob, t))
    top->walk([&](Operation *op) {
      if (isa<OpT>(op))
        ops.push_back(op);
    });
  return ops;
}

/// Replaces `op` by buildVariant(c) for the knob value's candidate c:
/// directly for a constant value, else through an scf.index_switch whose
/// default case is the exact op.
LogicalResult dispatch(PatternRewriter &b, Operation *op, const KnobValue &k,
                       function_ref<FailureOr<Value>(OpBuilder &, int32_t)>
                           buildVariant) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  if (k.constant) {
    FailureOr<Value> v = buildVariant(b, *k.constant);
    if (failed(v))
      return failure();
    b.replaceOp(op, *v);
    return success();
  }
  if (k.candidates.empty())
    return success();
  FailureOr<scf::IndexSwitchOp> sw = switchOnCandidates(
      b, loc, k, op->getResultTypes(),
      [&](OpBuilder &rb, int32_t c) -> FailureOr<SmallVector<Value>> {
        FailureOr<Value> v = buildVariant(rb, c);
        if (failed(v))
          return failure();
        return SmallVector<Value>{*v};
      });
  if (failed(sw))
    return failure();
  Block &dflt = sw->getDefaultRegion().front();
  b.replaceAllUsesWith(op->getResults(), sw->getResults());
  b.moveOpBefore(op, &dflt, dflt.end());
  OpBuilder db = OpBuilder::atBlockEnd(&dflt);
  scf::YieldOp::create(db, loc, op->getResults());
  return success();
}

SmallVector<unsigned> allDims(unsigned rank) {
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(d);
  return dims;
}

/// (d0, ..., d_{rank-1}) -> (d_i for i in `dims`).
AffineMap projection(MLIRContext *ctx, unsigned rank, ArrayRef<unsigned> dims) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

//===----------------------------------------------------------------------===//
// decode_quantize
//===----------------------------------------------------------------------===//

/// The smallest absolute maximum a scale is computed from (an all-zero
/// slice quantizes to zeros instead of dividing by zero).
constexpr float kTinyAbsMax = 1e-30f;

/// The absolute maximum of `x` over every dim not in `kept`: a tensor over
/// the kept dims (0-d when none is kept). Computed on the bits: with the
/// sign cleared, float order is integer order (NaN above infinity, so a NaN
/// still wins), and an integer max reduction vectorizes where a float one
/// (NaN-propagating maximumf) stays scalar.
Value absMax(OpBuilder &b, Location loc, Value x, ArrayRef<unsigned> kept) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  Value init = emptyLike(b, loc, x, i32, kept);
  Value tiny = arith::ConstantIntOp::create(
      b, loc, i32, llvm::bit_cast<int32_t>(kTinyAbsMax));
  init = filled(b, loc, tiny, init);
  SmallVector<IteratorType> iters(rank, IteratorType::reduction);
  for (unsigned d : kept)
    iters[d] = IteratorType::parallel;
  auto bits = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx),
                          projection(ctx, rank, kept)},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value mag = arith::AndIOp::create(
            nb, l, arith::BitcastOp::create(nb, l, i32, args[0]),
            arith::ConstantIntOp::create(nb, l, i32, 0x7fffffff));
        linalg::YieldOp::create(
            nb, l, Value(arith::MaxSIOp::create(nb, l, mag, args[1])));
      });
  unsigned keptRank = kept.size();
  AffineMap id = AffineMap::getMultiDimIdentityMap(keptRank, ctx);
  Value out = emptyLike(b, loc, x, f32, kept);
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{out.getType()}, ValueRange{bits.getResult(0)},
      ValueRange{out}, ArrayRef<AffineMap>{id, id},
      SmallVector<IteratorType>(keptRank, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, Value(arith::BitcastOp::create(nb, l, f32, args[0])));
      });
  return op.getResult(0);
}

/// scale = absmax / 127.
Value scaleOf(OpBuilder &b, Location loc, Value absmax) {
  Value c127 = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(127.0f));
  return arith::DivFOp::create(b, loc, absmax, c127);
}

/// x / scale, rounded to nearest even and clamped to [-127, 127], as i8.
Value toI8(OpBuilder &b, Location loc, Value x, Value absmax) {
  Value q = math::RoundEvenOp::create(
      b, loc, arith::DivFOp::create(b, loc, x, scaleOf(b, loc, absmax)));
  Value lo = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(-127.0f));
  Value hi = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(127.0f));
  q = arith::MinimumFOp::create(b, loc, arith::MaximumFOp::create(b, loc, q, lo),
                                hi);
  return arith::FPToSIOp::create(b, loc, b.getI8Type(), q);
}

/// `x` quantized to i8 with the scales of `absmax` (over the dims `kept`).
Value quantize(OpBuilder &b, Location loc, Value x, Value absmax,
               ArrayRef<unsigned> kept) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  Value init = emptyLike(b, loc, x, b.getI8Type());
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{x, absmax},
      ValueRange{init},
      ArrayRef<AffineMap>{id, projection(ctx, rank, kept), id},
      SmallVector<IteratorType>(rank, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, toI8(nb, l, args[0], args[1]));
      });
  return op.getResult(0);
}

/// A constant weight quantized at compile time: (i8 values, absmax over
/// the kept dims). Null when `x` is not a dense f32 constant.
std::optional<std::pair<Value, Value>>
quantizeConstant(OpBuilder &b, Location loc, Value x, ArrayRef<unsigned> kept) {
  DenseElementsAttr dense;
  if (!matchPattern(x, m_Constant(&dense)))
    return std::nullopt;
  auto type = cast<RankedTensorType>(x.getType());
  if (!type.hasStaticShape() || !type.getElementType().isF32())
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> keptShape;
  for (unsigned d : kept)
    keptShape.push_back(shape[d]);
  int64_t keptCount = 1;
  for (int64_t s : keptShape)
    keptCount *= s;
  SmallVector<float> values(dense.getValues<float>());
  // Index of element `flat` in the kept tensor.
  auto keptIndex = [&](int64_t flat) {
    SmallVector<int64_t> idx(shape.size());
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      idx[d] = flat % shape[d];
      flat /= shape[d];
    }
    int64_t k = 0;
    for (auto [i, d] : llvm::enumerate(kept))
      k = k * keptShape[i] + idx[d];
    return k;
  };
  SmallVector<float> maxes(keptCount, kTinyAbsMax);
  for (auto [flat, v] : llvm::enumerate(values)) {
    float &m = maxes[keptIndex(flat)];
    m = std::max(m, std::fabs(v));
  }
  SmallVector<int8_t> q(values.size());
  for (auto [flat, v] : llvm::enumerate(values)) {
    float r = std::nearbyint(v / (maxes[keptIndex(flat)] / 127.0f));
    q[flat] = int8_t(std::clamp(r, -127.0f, 127.0f));
  }
  auto qType = RankedTensorType::get(shape, b.getI8Type());
  auto mType = RankedTensorType::get(keptShape, b.getF32Type());
  Value qc = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(qType, ArrayRef<int8_t>(q)));
  Value mc = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(mType, ArrayRef<float>(maxes)));
  return std::make_pair(qc, mc);
}

/// The int8 variant of a matmul (rank 2) or batch matmul (rank 3):
/// A[.., m, k] x B[.., k, n] + C.
FailureOr<Value> quantizedContraction(OpBuilder &b, linalg::LinalgOp op,
                                      int32_t scheme) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value a = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
  Value c = op.getDpsInits()[0];
  unsigned rank = cast<RankedTensorType>(a.getType()).getRank();
  bool perChannel = scheme != 2;
  // Kept dims of the scales: rows of A (batch, m), columns of B (batch, n).
  SmallVector<unsigned> aKept, wKept;
  if (perChannel) {
    aKept = allDims(rank - 1);
    wKept = allDims(rank - 2);
    wKept.push_back(rank - 1);
  }
  Value aMax = absMax(b, loc, a, aKept);
  Value aq = quantize(b, loc, a, aMax, aKept);
  Value wq, wMax;
  if (auto folded = quantizeConstant(b, loc, w, wKept)) {
    std::tie(wq, wMax) = *folded;
  } else {
    wMax = absMax(b, loc, w, wKept);
    wq = quantize(b, loc, w, wMax, wKept);
  }
  unsigned outRank = rank; // (batch,) m, n
  Value acc = emptyLike(b, loc, c, b.getI32Type());
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  acc = filled(b, loc, zero, acc);
  Value prod =
      rank == 2
          ? linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                     ValueRange{aq, wq}, ValueRange{acc})
                .getResult(0)
          : linalg::BatchMatmulOp::create(b, loc, TypeRange{acc.getType()},
                                          ValueRange{aq, wq}, ValueRange{acc})
                .getResult(0);
  // C + prod * scaleA * scaleW, the scales indexed by the output's dims.
  SmallVector<unsigned> aOut, wOut;
  if (perChannel) {
    aOut = allDims(outRank - 1);         // (batch,) m
    wOut = allDims(outRank - 2);         // (batch,)
    wOut.push_back(outRank - 1);         // n
  }
  AffineMap id = AffineMap::getMultiDimIdentityMap(outRank, ctx);
  Value out = emptyLike(b, loc, c, b.getF32Type());
  auto deq = linalg::GenericOp::create(
      b, loc, TypeRange{out.getType()}, ValueRange{prod, aMax, wMax, c},
      ValueRange{out},
      ArrayRef<AffineMap>{id, projection(ctx, outRank, aOut),
                          projection(ctx, outRank, wOut), id, id},
      SmallVector<IteratorType>(outRank, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value p = arith::SIToFPOp::create(nb, l, nb.getF32Type(), args[0]);
        Value s = arith::MulFOp::create(nb, l, scaleOf(nb, l, args[1]),
                                        scaleOf(nb, l, args[2]));
        Value r = arith::AddFOp::create(
            nb, l, arith::MulFOp::create(nb, l, p, s), args[3]);
        linalg::YieldOp::create(nb, l, r);
      });
  return deq.getResult(0);
}

/// Whether `v` is a weight: a function argument or a constant, possibly
/// reshaped, transposed or copied.
bool isWeight(Value v) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (matchPattern(v, m_Constant()))
      return true;
    Operation *def = v.getDefiningOp();
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
            def)) {
      v = def->getOperand(0);
      continue;
    }
    auto copy = dyn_cast<linalg::LinalgOp>(def);
    if (!copy || copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1)
      return false;
    // linalg.transpose / copy / broadcast, or a generic that only yields
    // its input.
    bool moves = isa<linalg::TransposeOp, linalg::CopyOp, linalg::BroadcastOp>(
        def);
    if (auto g = dyn_cast<linalg::GenericOp>(def)) {
      Block &body = g.getRegion().front();
      auto yield = cast<linalg::YieldOp>(body.getTerminator());
      moves = body.getOperations().size() == 1 &&
              yield.getValues()[0] == body.getArgument(0);
    }
    if (!moves)
      return false;
    v = copy.getDpsInputs()[0];
  }
}

/// decode_quantize's scheme on weight contractions only.
constexpr int32_t kWeightsOnly = 3;

bool allF32(linalg::LinalgOp op) {
  return llvm::all_of(op->getOperandTypes(), [](Type t) {
    auto tt = dyn_cast<RankedTensorType>(t);
    return tt && tt.getElementType().isF32();
  });
}

struct DecodeQuantize : TransformKindPattern<TransformKind::DecodeQuantize> {
  using TransformKindPattern::TransformKindPattern;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    SmallVector<Operation *> ops;
    for (Operation *op : opsInKnob<linalg::LinalgOp>(knob, t))
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        ops.push_back(op);
    if (ops.empty())
      return knob.emitOpError("decode_quantize: the knob contains no "
                              "linalg.matmul or linalg.batch_matmul");
    for (Operation *op : ops) {
      auto lop = cast<linalg::LinalgOp>(op);
      bool userMaps = false;
      if (auto mm = dyn_cast<linalg::MatmulOp>(op))
        userMaps = mm.hasUserDefinedMaps();
      if (auto bm = dyn_cast<linalg::BatchMatmulOp>(op))
        userMaps = bm.hasUserDefinedMaps();
      if (!lop.hasPureTensorSemantics() || !allF32(lop) || userMaps)
        return op->emitOpError("decode_quantize needs f32 tensor operands "
                               "and the default indexing maps");
      bool weight = isWeight(lop.getDpsInputs()[1]);
      if (!weight && k.constant == kWeightsOnly)
        continue;
      if (failed(dispatch(b, op, k, [&](OpBuilder &vb, int32_t scheme) {
            if (scheme == kWeightsOnly && !weight)
              return FailureOr<Value>(vb.clone(*op)->getResult(0));
            return quantizedContraction(vb, lop, scheme);
          })))
        return failure();
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// precision_reduce
//===----------------------------------------------------------------------===//

/// f32 -> narrow -> f32, element by element: the value the narrow type holds.
Value roundTrip(OpBuilder &b, Location loc, Value x, FloatType narrow) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  Value init = emptyLike(b, loc, x, narrow);
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
      ArrayRef<AffineMap>{id, id},
      SmallVector<IteratorType>(rank, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, Value(arith::TruncFOp::create(nb, l, narrow, args[0])));
      });
  return op.getResult(0);
}

/// A clone of `op` reading its f32 tensor inputs in `narrow` and widening
/// them in its payload: arithmetic and accumulation in f32. Matmuls stay
/// named ops (their payload casts mixed operands), the rest is generalized.
FailureOr<Value> narrowedClone(OpBuilder &b, linalg::LinalgOp op,
                               FloatType narrow) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation())) {
    Location loc = op.getLoc();
    Value x = roundTrip(b, loc, op.getDpsInputs()[0], narrow);
    Value y = roundTrip(b, loc, op.getDpsInputs()[1], narrow);
    Value c = op.getDpsInits()[0];
    if (isa<linalg::MatmulOp>(op.getOperation()))
      return linalg::MatmulOp::create(b, loc, TypeRange{c.getType()},
                                      ValueRange{x, y}, ValueRange{c})
          .getResult(0);
    return linalg::BatchMatmulOp::create(b, loc, TypeRange{c.getType()},
                                         ValueRange{x, y}, ValueRange{c})
        .getResult(0);
  }
  IRRewriter rewriter(b);
  rewriter.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
  auto clone = cast<linalg::LinalgOp>(rewriter.clone(*op));
  FailureOr<linalg::GenericOp> generic =
      asGeneric(rewriter, clone, "precision_reduce");
  if (failed(generic))
    return failure();
  Block &body = generic->getRegion().front();
  for (OpOperand *in : generic->getDpsInputOperands()) {
    auto tt = dyn_cast<RankedTensorType>(in->get().getType());
    if (!tt || !tt.getElementType().isF32())
      continue;
    rewriter.setInsertionPoint(*generic);
    in->set(roundTrip(rewriter, op.getLoc(), in->get(), narrow));
    BlockArgument arg = body.getArgument(in->getOperandNumber());
    arg.setType(narrow);
    rewriter.setInsertionPointToStart(&body);
    Value wide =
        arith::ExtFOp::create(rewriter, op.getLoc(), rewriter.getF32Type(), arg);
    rewriter.replaceAllUsesExcept(arg, wide, wide.getDefiningOp());
  }
  return generic->getResult(0);
}

/// precision_reduce's value for bf16 on contractions only.
constexpr int32_t kContractionsInBf16 = 3;

struct PrecisionReduce : TransformKindPattern<TransformKind::PrecisionReduce> {
  using TransformKindPattern::TransformKindPattern;

  LogicalResult apply(PatternRewriter &b, KnobOp knob, TransformOp t,
                      const KnobValue &k) const override {
    SmallVector<Operation *> ops;
    for (Operation *op : opsInKnob<linalg::LinalgOp>(knob, t)) {
      auto lop = cast<linalg::LinalgOp>(op);
      bool f32In = llvm::any_of(lop.getDpsInputs(), [](Value v) {
        auto tt = dyn_cast<RankedTensorType>(v.getType());
        return tt && tt.getElementType().isF32();
      });
      if (f32In && lop.hasPureTensorSemantics() && op->getNumResults() == 1 &&
          !isa<linalg::FillOp>(op))
        ops.push_back(op);
    }
    if (ops.empty())
      return knob.emitOpError("precision_reduce: the knob contains no linalg "
                              "op on f32 tensors");
    for (Operation *op : ops) {
      auto lop = cast<linalg::LinalgOp>(op);
      bool contraction = isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
      if (!contraction && k.constant == kContractionsInBf16)
        continue;
      if (failed(dispatch(b, op, k, [&](OpBuilder &vb, int32_t kind) {
            if (kind == kContractionsInBf16 && !contraction)
              return FailureOr<Value>(vb.clone(*op)->getResult(0));
            FloatType narrow = kind == 1 ? FloatType(vb.getF16Type())
                                         : FloatType(vb.getBF16Type());
            return narrowedClone(vb, lop, narrow);
          })))
        return failure();
    }
    return success();
  }
};

} // namespace

void populateMLTransformPatterns(RewritePatternSet &patterns) {
  patterns.add<DecodeQuantize, PrecisionReduce>(patterns.getContext());
}

} // namespace approx
