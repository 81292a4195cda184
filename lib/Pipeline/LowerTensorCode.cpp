//===- LowerTensorCode.cpp - tensor code to loops and vectors -------------===//
//
// ML functions (linalg on tensors) become native code in three steps:
//  0. elementwise chains fused into their consumers (broadcasts, transposes
//     and reductions included): one loop nest each, no tensor in between;
//  1. contractions: an f32 matmul / batch matmul whose M and N divide the
//     register block (8 x 32) is tiled into blocks, its K loop tiled by 1 and
//     each step vectorized (vector.contract, lowered to FMAs of outer
//     products); the accumulator's read and write are hoisted out of the K
//     loop (a vector carried by the loop), so a block stays in registers. An
//     int8 one (decode_quantize's) or a bf16 one (precision_reduce's) runs
//     on AMX tiles (AmxTiles.cpp), or, with K a multiple of 4 (int8) or
//     even (bf16), the same blocks on AVX-512 VNNI or BF16 dot products,
//     where the target has them (dot-product); a bf16 one they do not take
//     is widened to f32 for the f32 blocks. Other matmuls loop as
//     (batch,) i, k, j, which clang vectorizes along rows.
//  2. one-shot bufferization (identity layouts at function boundaries),
//     ownership-based deallocation;
//  3. linalg to loops (parallel dimensions as scf.parallel; buffer copies
//     included), strided metadata, affine, bf16 conversions as integer ops;
//  4. the outermost independent loop of each nest on OpenMP threads where it
//     carries enough work (Parallelize.cpp), the other loops sequential;
//  5. erf/erfc and exp as vectorizable polynomials.
//
//===----------------------------------------------------------------------===//
#include "LowerTensorCode.h"
#include "AmxTiles.h"

#include "approx_runtime.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

namespace approx {
/// One walk, nothing else touched (a greedy driver would also fold and
/// erase dead ops, which is not this step's business).
static LogicalResult expandErf(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populatePolynomialApproximateErfPattern(patterns);
  populatePolynomialApproximateErfcPattern(patterns);
  walkAndApplyPatterns(root, FrozenRewritePatternSet(std::move(patterns)));
  return success();
}

/// exp (softmax, GELU) and tanh (GELU's tanh form, GRU and LSTM cells) as
/// MLIR's polynomials (tanh's is the rational one XLA's CPU backend uses),
/// which the vectorizer handles: libm's expf and tanhf are a call per
/// element (tanhf was a quarter of a GRU's time).
static void expandExpAndTanh(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
    return name == math::ExpOp::getOperationName() ||
           name == math::TanhOp::getOperationName();
  });
  walkAndApplyPatterns(root, FrozenRewritePatternSet(std::move(patterns)));
}

void markIndependent(Operation *loop) {
  loop->setAttr(kIndependentIterations, UnitAttr::get(loop->getContext()));
}

namespace {

/// Float reductions (layer norm, softmax, quantization scales) may be
/// reassociated, as XLA's are: their combiner gets `reassoc`, so that LLVM
/// vectorizes them (a float sum in program order adds one element per add
/// latency).
void reassociateReductions(ModuleOp module) {
  module.walk([](linalg::GenericOp g) {
    if (g.getNumReductionLoops() == 0 || !g.hasPureTensorSemantics())
      return;
    auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
    for (auto [i, v] : llvm::enumerate(yield.getValues())) {
      Operation *combiner = v.getDefiningOp();
      auto fm = dyn_cast_or_null<arith::ArithFastMathInterface>(combiner);
      if (!fm || !isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
                      arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(
                     combiner) ||
          !llvm::is_contained(combiner->getOperands(),
                              g.getRegionOutputArgs()[i]))
        continue;
      combiner->setAttr(fm.getFastMathAttrName(),
                        arith::FastMathFlagsAttr::get(
                            g.getContext(),
                            fm.getFastMathFlagsAttr().getValue() |
                                arith::FastMathFlags::reassoc));
    }
  });
}

/// The register block of a vectorized matmul: rows x columns of C (the dot
/// instructions' blocks: kBlockRows; f32 blocks: kF32BlockRows, whose 28
/// accumulator registers of 16 floats leave 4 of AVX-512's 32 for a row of
/// B and a broadcast element of A: 1.1-1.2x faster than 8 rows).
constexpr int64_t kBlockRows = 8, kF32BlockRows = 14, kBlockCols = 32;

bool hasTensors(ModuleOp module) {
  auto isTensor = [](Type t) { return isa<TensorType>(t); };
  return module
      .walk([&](Operation *op) {
        if (llvm::any_of(op->getResultTypes(), isTensor) ||
            llvm::any_of(op->getOperandTypes(), isTensor))
          return WalkResult::interrupt();
        if (auto fn = dyn_cast<FunctionOpInterface>(op))
          if (llvm::any_of(fn.getArgumentTypes(), isTensor) ||
              llvm::any_of(fn.getResultTypes(), isTensor))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// The packed copies of contractions' B operands: one per B and layout
/// (the packed type), however many contractions multiply by it (an
/// unrolled RNN's steps by its weights: the GRU's 32 matmuls packed its 2
/// weights 16 times each), placed right after B's definition, which
/// dominates each of them. A B with one use is packed at its contraction
/// (the dot instructions' packing then fuses B's producer in:
/// DotLowering::pack).
class PackedOperands {
public:
  /// The packing of `b` into `type`, made by `pack` at the first request.
  Value get(RewriterBase &rewriter, Value b, Type type,
            function_ref<Value()> pack) {
    if (b.hasOneUse())
      return pack();
    auto [it, inserted] = packed.try_emplace({b, type});
    if (inserted) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfterValue(b);
      it->second = pack();
    }
    return it->second;
  }

private:
  DenseMap<std::pair<Value, Type>, Value> packed;
};

/// The rows of A over every contraction that multiplies by `b`: how often
/// a packed copy of B would be read.
int64_t rowsMultiplying(Value b) {
  int64_t rows = 0;
  for (OpOperand &use : b.getUses()) {
    auto op = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!op || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(*op) ||
        use.getOperandNumber() != 1)
      continue;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    rows += ranges[ranges.size() - 3];
  }
  return rows;
}

/// Tiles `op` by `sizes` (0 = untiled), replacing it; the tiled op.
FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *op,
                            ArrayRef<int64_t> sizes,
                            ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> r =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(r))
    return failure();
  rewriter.replaceOp(op, r->replacements);
  if (!r->loops.empty())
    markIndependent(r->loops.front());
  return r->tiledOps.back();
}

/// One register block C[rows x cols] += A[rows x K] B[K x cols] (with a
/// leading unit batch dim for batch matmuls): the accumulator is read once
/// into a vector, the K loop carries it and adds one outer product per step
/// (a column of A times a row of B), and it is written back once.
LogicalResult vectorizeBlock(RewriterBase &rewriter, linalg::LinalgOp block,
                             int64_t rows, int64_t cols, bool zeroInit) {
  Location loc = block.getLoc();
  Value a = block.getDpsInputs()[0], b = block.getDpsInputs()[1];
  Value c = block.getDpsInits()[0];
  auto aType = cast<RankedTensorType>(a.getType());
  unsigned rank = aType.getRank();
  int64_t k = aType.getShape()[rank - 1];
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(block);
  Type f32 = rewriter.getF32Type();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value pad = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  // The minor 2-D map of a rank-2 or rank-3 (unit batch) tile.
  AffineMap minor = AffineMap::getMinorIdentityMap(rank, 2, ctx);
  SmallVector<bool> inBounds = {true, true};
  auto accType = VectorType::get({rows, cols}, f32);
  SmallVector<Value> cIdx(rank, zero);
  Value acc0 =
      zeroInit
          ? arith::ConstantOp::create(rewriter, loc, accType,
                                      rewriter.getZeroAttr(accType))
                .getResult()
          : vector::TransferReadOp::create(rewriter, loc, accType, c, cIdx,
                                           pad, minor, inBounds)
                .getResult();
  Value lb = zero, ub = arith::ConstantIndexOp::create(rewriter, loc, k),
        one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, lb, ub, one, ValueRange{acc0},
      [&](OpBuilder &nb, Location l, Value kk, ValueRange iter) {
        SmallVector<Value> aIdx(rank, zero), bIdx(rank, zero);
        aIdx[rank - 1] = kk;
        bIdx[rank - 2] = kk;
        Value col = vector::TransferReadOp::create(
            nb, l, VectorType::get({rows, 1}, f32), a, aIdx, pad, minor,
            inBounds);
        Value row = vector::TransferReadOp::create(
            nb, l, VectorType::get({1, cols}, f32), b, bIdx, pad, minor,
            inBounds);
        AffineExpr i, j, r;
        bindDims(ctx, i, j, r);
        SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {i, r}, ctx),
                                       AffineMap::get(3, 0, {r, j}, ctx),
                                       AffineMap::get(3, 0, {i, j}, ctx)};
        auto iters = nb.getArrayAttr(
            {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
             vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
             vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
        Value next = vector::ContractionOp::create(
            nb, l, col, row, iter[0], nb.getAffineMapArrayAttr(maps), iters);
        scf::YieldOp::create(nb, l, next);
      });
  Value result = vector::TransferWriteOp::create(rewriter, loc, loop.getResult(0),
                                                 c, cIdx, minor, inBounds)
                     .getResult();
  rewriter.replaceOp(block, result);
  return success();
}

Type elementType(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// The fill `c` is made by, if it fills with zeros (the usual init of a
/// contraction): register blocks that cover C then start their
/// accumulators at zero, and C is neither filled nor read.
linalg::FillOp zeroFill(Value c) {
  auto fill = c.getDefiningOp<linalg::FillOp>();
  if (fill && (matchPattern(fill.value(), m_AnyZeroFloat()) ||
               matchPattern(fill.value(), m_Zero())))
    return fill;
  return nullptr;
}

/// `op` with its init a zero fill's empty tensor instead (zeroFill), the
/// fill erased if nothing else uses it; whether it was one.
bool dropZeroFill(RewriterBase &rewriter, linalg::LinalgOp op) {
  OpOperand &init = op.getDpsInitsMutable()[0];
  linalg::FillOp fill = zeroFill(init.get());
  if (!fill)
    return false;
  rewriter.modifyOpInPlace(op, [&] { init.set(fill.getOutputs()[0]); });
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  return true;
}

/// The result of `consumer` (a generic of one input), with the producer of
/// its input fused in when the input has no other use: a weight's
/// quantization or rounding computed in the loop that packs or widens it,
/// no tensor in between. Uses of the result follow the fused op.
Value fuseProducer(RewriterBase &rewriter, linalg::GenericOp consumer) {
  Value result = consumer.getResult(0);
  OpOperand &fromProducer = consumer->getOpOperand(0);
  Value in = fromProducer.get();
  if (!in.hasOneUse() || !linalg::areElementwiseOpsFusable(&fromProducer))
    return result;
  FailureOr<linalg::ElementwiseOpFusionResult> fused =
      linalg::fuseElementwiseOps(rewriter, &fromProducer);
  if (failed(fused))
    return result;
  Value out = fused->replacements.lookup(result);
  Operation *producer = in.getDefiningOp();
  rewriter.replaceAllUsesWith(result, out);
  rewriter.eraseOp(consumer);
  if (producer->use_empty())
    rewriter.eraseOp(producer);
  return out;
}

/// Matmuls loop as (batch,) i, k, j instead of (batch,) i, j, k: the
/// innermost loop then runs along rows of B and C, which LLVM vectorizes
/// (a reduction innermost would need reassociating float additions).
LogicalResult interchange(RewriterBase &rewriter, linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return op->emitOpError("cannot generalize for lowering");
  SmallVector<unsigned> order;
  for (unsigned d = 0; d + 2 < loops; ++d)
    order.push_back(d);
  order.append({loops - 1, loops - 2}); // k before j
  if (failed(linalg::interchangeGenericOp(rewriter, *generic, order)))
    return generic->emitOpError("cannot interchange for lowering");
  return success();
}

/// The type of B[(batch,) K, N] packed by blocks of `cols` columns:
/// [(batch,) N / cols, K, cols].
RankedTensorType columnsPackedType(Value b, int64_t cols) {
  auto type = cast<RankedTensorType>(b.getType());
  int64_t rank = type.getRank(), k = type.getDimSize(rank - 2),
          n = type.getDimSize(rank - 1);
  SmallVector<int64_t> shape(type.getShape().drop_back(2));
  shape.append({n / cols, k, cols});
  return RankedTensorType::get(shape, type.getElementType());
}

/// B[(batch,) K, N] packed by blocks of `cols` columns:
/// P[(batch,) j, k, l] = B[(batch,) k, j * cols + l], so that a block's K
/// rows of B are contiguous.
Value packColumns(RewriterBase &rewriter, Location loc, Value b,
                  int64_t cols) {
  auto type = cast<RankedTensorType>(b.getType());
  int64_t rank = type.getRank();
  RankedTensorType packedType = columnsPackedType(b, cols);
  MLIRContext *ctx = rewriter.getContext();
  // (batch,) j, k, l -> (batch,) k, j * cols + l
  unsigned dims = rank + 1;
  SmallVector<AffineExpr> in;
  for (unsigned d = 0; d + 2 < static_cast<unsigned>(rank); ++d)
    in.push_back(getAffineDimExpr(d, ctx));
  AffineExpr j = getAffineDimExpr(dims - 3, ctx),
             kk = getAffineDimExpr(dims - 2, ctx),
             l = getAffineDimExpr(dims - 1, ctx);
  in.append({kk, j * cols + l});
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, in, ctx),
                                 AffineMap::getMultiDimIdentityMap(dims, ctx)};
  SmallVector<utils::IteratorType> iterators(dims,
                                             utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(rewriter, loc, packedType.getShape(),
                                       type.getElementType());
  auto pack = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{b}, ValueRange{init},
      maps, iterators, [](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, args[0]);
      });
  return pack.getResult(0);
}

/// The matmuls multiplying by a B need this many rows together (their
/// blocks reuse each panel of B) for B to be packed: with 64 (a GPT-2 block
/// on one sequence) packing cost more than it saved (1.70 -> 1.90 ms); with
/// 256 (MiniLM on 8 x 32 tokens) it saved 5-10 %. (A GRU step at batch 64
/// cost more too, 10.2 -> 13.0 ms, when each step packed the weights
/// again: PackedOperands.)
constexpr int64_t kPackMinRows = 128;

/// `op` tiled by register blocks of rows x cols (which divide its M and N)
/// and each block vectorized.
/// `zeroInit`: C's contents are zeros (dropZeroFill), which the blocks do
/// not read; if `op` cannot be blocked, its C is filled again for the loops
/// the caller falls back to.
LogicalResult vectorizeBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                              int64_t rows, int64_t cols,
                              PackedOperands &packs, bool zeroInit) {
  unsigned loops = op.getNumLoops(); // (batch,) m, n, k
  SmallVector<int64_t> block(loops, 0);
  if (loops == 4)
    block[0] = 1;
  block[loops - 3] = rows;
  block[loops - 2] = cols;
  // The blocks of the larger of A and B outermost: the other operand's
  // panel (A's rows or B's columns, by K) is then reused from cache by every
  // block of the inner loop, instead of the whole larger operand being
  // streamed again for each outer block (a 256 x 384 by 384 x 1536 matmul:
  // 1.7x faster). B is the larger when N > M.
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, loops));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[loops - 2] > ranges[loops - 3])
    std::swap(order[loops - 3], order[loops - 2]);
  // B packed by blocks of columns when more than one block of columns and
  // enough rows use it: unpacked, a block's K rows of B lie a row of B
  // apart, which for N = 1536 (6 KiB) puts all of them in 2 of L1's 64 sets.
  Value packed, b = op.getDpsInputs()[1];
  if (ranges[loops - 2] > cols && rowsMultiplying(b) >= kPackMinRows) {
    rewriter.setInsertionPoint(op);
    packed = packs.get(rewriter, b, columnsPackedType(b, cols), [&] {
      return packColumns(rewriter, op.getLoc(), b, cols);
    });
  }
  FailureOr<Operation *> tiled = tile(rewriter, op, block, order);
  if (failed(tiled)) { // (a packed B left unused: a dead op)
    if (zeroInit) {
      OpOperand &init = op.getDpsInitsMutable()[0];
      rewriter.setInsertionPoint(op);
      Type element = elementType(init.get());
      Value zero = arith::ConstantOp::create(rewriter, op.getLoc(), element,
                                             rewriter.getZeroAttr(element));
      auto fill = linalg::FillOp::create(rewriter, op.getLoc(), zero,
                                         init.get());
      rewriter.modifyOpInPlace(op, [&] { init.set(fill.getResult(0)); });
    }
    return failure();
  }
  auto blockOp = cast<linalg::LinalgOp>(*tiled);
  if (auto slice =
          blockOp.getDpsInputs()[1].getDefiningOp<tensor::ExtractSliceOp>();
      packed && slice) {
    // The block's columns of B, [(1,) K, cols], from the packed copy.
    Location loc = slice.getLoc();
    rewriter.setInsertionPoint(slice);
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    Value n0 = getValueOrCreateConstantIndexOp(rewriter, loc, offsets.back());
    Value j = arith::DivUIOp::create(
        rewriter, loc, n0, arith::ConstantIndexOp::create(rewriter, loc, cols));
    offsets.pop_back();
    offsets.pop_back();
    offsets.append({j, rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)});
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    sizes.insert(sizes.end() - 2, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
    Value fromPacked = tensor::ExtractSliceOp::create(
        rewriter, loc, slice.getType(), packed, offsets, sizes, strides);
    rewriter.modifyOpInPlace(blockOp, [&] {
      blockOp->setOperand(1, fromPacked);
    });
  }
  return vectorizeBlock(rewriter, blockOp, rows, cols, zeroInit);
}

/// Register-blocked, vectorized form of an f32 matmul (rank 2) or batch
/// matmul (rank 3) with static shapes; any other contraction is
/// interchanged (above), and a piece that cannot be blocked too. Rows past
/// the last whole block of kF32BlockRows and columns past the last whole block
/// of kBlockCols are peeled into matmuls of their own, blocked by what is
/// left (a 10-class head: 14 x 10 blocks; a GEMV: 1 x 32), so that skinny
/// and odd shapes stay in registers instead of falling to scalar loops.
LogicalResult vectorizeContraction(RewriterBase &rewriter,
                                   linalg::LinalgOp op, PackedOperands &packs) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size();
  if (ShapedType::isDynamicShape(ranges) ||
      !llvm::all_of(op->getOperandTypes(), [](Type t) {
        return cast<ShapedType>(t).getElementType().isF32();
      }))
    return interchange(rewriter, op);
  int64_t m = ranges[loops - 3], n = ranges[loops - 2];
  int64_t mMain = m - m % kF32BlockRows, nMain = n - n % kBlockCols;
  bool zeroInit = dropZeroFill(rewriter, op);
  if (mMain == m && nMain == n)
    return success(
        succeeded(vectorizeBlocks(rewriter, op, kF32BlockRows, kBlockCols,
                                  packs, zeroInit)) ||
        succeeded(interchange(rewriter, op)));
  // The pieces: each segment of rows by each segment of columns (below), a
  // matmul on slices, inserted into C in turn.
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1];
  Value c = op.getDpsInits()[0];
  unsigned rank = loops - 1; // of every operand
  int64_t batch = rank == 3 ? ranges[0] : 0, k = ranges[loops - 1];
  auto slice = [&](int64_t r0, int64_t rs, int64_t c0, int64_t cs) {
    SmallVector<OpFoldResult> offsets, sizes,
        strides(rank, rewriter.getIndexAttr(1));
    if (rank == 3) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(batch));
    }
    offsets.append({rewriter.getIndexAttr(r0), rewriter.getIndexAttr(c0)});
    sizes.append({rewriter.getIndexAttr(rs), rewriter.getIndexAttr(cs)});
    return std::make_tuple(offsets, sizes, strides);
  };
  auto extract = [&](Value t, int64_t r0, int64_t rs, int64_t c0,
                     int64_t cs) -> Value {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(t.getType()).getShape();
    if (r0 == 0 && c0 == 0 && shape.take_back(2) == ArrayRef<int64_t>{rs, cs})
      return t; // all of it (B, whose packing the pieces then share)
    auto [offsets, sizes, strides] = slice(r0, rs, c0, cs);
    return tensor::ExtractSliceOp::create(rewriter, loc, t, offsets, sizes,
                                          strides);
  };
  // Segments (start, size, block) of rows and of columns. Columns left
  // over are a block of 16 (half a block) and then the rest (under 16):
  // LLVM handles a row of up to 16 floats in one register, but splits rows
  // of 17-31 or 48 floats badly (8-17x slower).
  using Segment = std::tuple<int64_t, int64_t, int64_t>;
  SmallVector<Segment> rowSegs, colSegs;
  if (mMain)
    rowSegs.emplace_back(0, mMain, kF32BlockRows);
  if (m > mMain)
    rowSegs.emplace_back(mMain, m - mMain, m - mMain);
  if (nMain)
    colSegs.emplace_back(0, nMain, kBlockCols);
  int64_t half = kBlockCols / 2, next = nMain;
  if (n - next >= half) {
    colSegs.emplace_back(next, half, half);
    next += half;
  }
  if (n > next)
    colSegs.emplace_back(next, n - next, n - next);
  Value cur = c;
  SmallVector<std::tuple<linalg::LinalgOp, int64_t, int64_t>> pieces;
  for (auto [m0, ms, rows] : rowSegs)
    for (auto [n0, ns, cols] : colSegs) {
      Value pa = extract(a, m0, ms, 0, k), pb = extract(b, 0, k, n0, ns),
            pc = extract(cur, m0, ms, n0, ns);
      auto piece = cast<linalg::LinalgOp>(
          clone(rewriter, op, {pc.getType()}, {pa, pb, pc}));
      auto [offsets, sizes, strides] = slice(m0, ms, n0, ns);
      cur = tensor::InsertSliceOp::create(rewriter, loc, piece->getResult(0),
                                          cur, offsets, sizes, strides);
      pieces.emplace_back(piece, rows, cols);
    }
  rewriter.replaceOp(op, cur);
  for (auto [piece, rows, cols] : pieces)
    if (failed(vectorizeBlocks(rewriter, piece, rows, cols, packs,
                               zeroInit)) &&
        failed(interchange(rewriter, piece)))
      return failure();
  return success();
}

/// An AVX-512 dot-product instruction: each of its 16 accumulator lanes
/// adds the sum of `group` adjacent products of its two operands (32 bits of
/// each per lane). The tensor phase calls a declaration in its place
/// (buffer deallocation rejects an intrinsic call, whose memory effects it
/// cannot see); the calls become the intrinsic after bufferization.
struct DotInstruction {
  StringLiteral intrinsic, placeholder;
  int64_t group;  // products summed per lane (32 bits of operands)
  bool unsignedA; // the first operand is unsigned (offset by 128)
  StringLiteral hostFeature;
  ArrayRef<StringLiteral> features; // what a function using it needs
  /// The AMX tile instruction for the same types (AmxTiles.cpp: signed
  /// operands, B packed by the same groups), the host feature it needs, and
  /// what a function using it needs.
  StringLiteral tileHostFeature;
  ArrayRef<StringLiteral> tileFeatures;
};
constexpr int64_t kDotLanes = 16;
constexpr StringLiteral kVnniFeatures[] = {"+avx512f", "+avx512bw",
                                           "+avx512vnni"};
constexpr StringLiteral kBf16Features[] = {"+avx512f", "+avx512bw",
                                           "+avx512bf16"};
constexpr StringLiteral kAmxInt8Features[] = {"+amx-tile", "+amx-int8"};
constexpr StringLiteral kAmxBf16Features[] = {"+amx-tile", "+amx-bf16"};
/// vpdpbusd: unsigned by signed bytes into i32 (decode_quantize's int8);
/// tdpbssd on tiles (signed by signed).
constexpr DotInstruction kVpdpbusd = {"llvm.x86.avx512.vpdpbusd.512",
                                      "__approx_vpdpbusd_512",
                                      4,
                                      true,
                                      "avx512vnni",
                                      kVnniFeatures,
                                      "amx-int8",
                                      kAmxInt8Features};
/// vdpbf16ps: bf16 pairs into f32 (precision_reduce's bf16); tdpbf16ps on
/// tiles.
constexpr DotInstruction kVdpbf16ps = {"llvm.x86.avx512bf16.dpbf16ps.512",
                                       "__approx_dpbf16ps_512",
                                       2,
                                       false,
                                       "avx512bf16",
                                       kBf16Features,
                                       "amx-bf16",
                                       kAmxBf16Features};
constexpr const DotInstruction *kDotInstructions[] = {&kVpdpbusd, &kVdpbf16ps};

/// The instructions `choice` lets the lowering use (decided once per run):
/// on AMX tiles, or in AVX-512 register blocks.
struct UsableDots {
  SmallVector<const DotInstruction *> tiles, vectors;
};
UsableDots usableDotInstructions(DotProduct choice) {
  UsableDots usable;
  if (choice == DotProduct::Loops)
    return usable;
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  for (const DotInstruction *dot : kDotInstructions) {
    if (choice == DotProduct::Amx ||
        (choice == DotProduct::Host && host.lookup("amx-tile") &&
         host.lookup(dot->tileHostFeature) && processHasAmxTiles()))
      usable.tiles.push_back(dot);
    if (choice == DotProduct::Avx512 ||
        (choice != DotProduct::Amx && host.lookup("avx512f") &&
         host.lookup("avx512bw") && host.lookup(dot->hostFeature)))
      usable.vectors.push_back(dot);
  }
  return usable;
}

/// The instruction for a contraction's element types, if any: i8 x i8 -> i32
/// or bf16 x bf16 -> f32.
const DotInstruction *dotInstructionFor(linalg::LinalgOp op) {
  Type a = elementType(op.getDpsInputs()[0]),
       b = elementType(op.getDpsInputs()[1]),
       c = elementType(op.getDpsInits()[0]);
  if (a != b)
    return nullptr;
  if (a.isInteger(8) && c.isInteger(32))
    return &kVpdpbusd;
  if (a.isBF16() && c.isF32())
    return &kVdpbf16ps;
  return nullptr;
}

/// The pieces of a contraction C[.., M, N] += A[.., M, K] B[.., K, N] on
/// `dot` (an optional leading batch dimension, static shapes). The tensors
/// they build carry the batch dimension first when there is one.
class DotLowering {
public:
  /// `loopRanges`: (batch,) m, n, k if not the op's own (its operands
  /// padded).
  DotLowering(RewriterBase &rewriter, linalg::LinalgOp op,
              const DotInstruction &dot, ArrayRef<int64_t> loopRanges = {})
      : rewriter(rewriter), loc(op.getLoc()), ctx(rewriter.getContext()),
        dot(dot),
        ranges(loopRanges.empty() ? op.getStaticLoopRanges()
                                  : SmallVector<int64_t>(loopRanges)),
        batched(ranges.size() == 4),
        lead(batched ? 1 : 0), m(ranges[lead]), n(ranges[lead + 1]),
        k(ranges[lead + 2]), operand(elementType(op.getDpsInputs()[0])),
        accumulator(elementType(op.getDpsInits()[0])) {}

  /// A ^ 0x80: vpdpbusd's unsigned first operand.
  Value unsignedA(Value a);
  /// B packed so that the `group` operands a lane sums are adjacent,
  /// Bp[.., k / g, n, k % g] = B[.., k, n] (3-D), its producer fused into
  /// the packing loop when B has no other use.
  Value pack(Value b);
  /// The packed B's type: [(batch,) K / g, N, g].
  RankedTensorType packedType() const {
    return shaped({k / dot.group, n, dot.group}, operand);
  }
  /// C - 128 * colsum(B), from the packed B: what offsetting A added.
  Value lessColumnSums(Value c, Value packed);
  /// The register blocks over A, the packed B and C: (batch,) rows by 8,
  /// columns by 32, each a K loop of dot products (placeholder calls).
  /// `zeroInit`: C's contents are zeros, which the blocks do not read.
  scf::ValueVector blocks(Value a, Value packed, Value c, ModuleOp module,
                          bool zeroInit);
  /// C += A * the packed B as one generic marked for AMX tiles
  /// (kTileContraction: lowerTileContractions after bufferization); C's
  /// contents are zeros if `zeroInit` (kTileZeroInit: C may be empty).
  Value tiles(Value a, Value packed, Value c, bool zeroInit);

private:
  static SmallVector<utils::IteratorType> parallel(unsigned count) {
    return SmallVector<utils::IteratorType>(count, utils::IteratorType::parallel);
  }
  /// (batch,) then `tail`.
  RankedTensorType shaped(ArrayRef<int64_t> tail, Type element) const {
    SmallVector<int64_t> shape;
    if (batched)
      shape.push_back(ranges[0]);
    shape.append(tail.begin(), tail.end());
    return RankedTensorType::get(shape, element);
  }
  Value empty(RankedTensorType type) {
    return tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                   type.getElementType())
        .getResult();
  }
  Value empty(Value like) {
    return empty(cast<RankedTensorType>(like.getType()));
  }
  /// d0 (the batch), if batched, then `tail`: an indexing map's results.
  SmallVector<AffineExpr> batchedExprs(ArrayRef<AffineExpr> tail) const {
    SmallVector<AffineExpr> exprs;
    if (batched)
      exprs.push_back(getAffineDimExpr(0, ctx));
    exprs.append(tail.begin(), tail.end());
    return exprs;
  }

  RewriterBase &rewriter;
  Location loc;
  MLIRContext *ctx;
  const DotInstruction &dot;
  SmallVector<int64_t> ranges; // (batch,) m, n, k
  bool batched;
  unsigned lead; // leading batch dims
  int64_t m, n, k;
  Type operand, accumulator;
};

Value DotLowering::unsignedA(Value a) {
  unsigned rank = lead + 2;
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{a.getType()}, ValueRange{a},
             ValueRange{empty(a)}, ArrayRef<AffineMap>{id, id}, parallel(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value bias = arith::ConstantIntOp::create(nb, l, operand, -128);
               linalg::YieldOp::create(
                   nb, l, Value(arith::XOrIOp::create(nb, l, args[0], bias)));
             })
      .getResult(0);
}

Value DotLowering::pack(Value b) {
  // Looping over (batch,) n, k / g, k % g: along the rows of a transposed
  // weight (x @ W.T), whose quantization or rounding is then fused into this
  // loop (B's one use) and reads W in order.
  int64_t g = dot.group;
  unsigned rank = lead + 3;
  AffineExpr col = getAffineDimExpr(lead, ctx),
             kq = getAffineDimExpr(lead + 1, ctx),
             kr = getAffineDimExpr(lead + 2, ctx);
  auto pack = linalg::GenericOp::create(
      rewriter, loc, TypeRange{packedType()}, ValueRange{b},
      ValueRange{empty(packedType())},
      ArrayRef<AffineMap>{
          AffineMap::get(rank, 0, batchedExprs({kq * g + kr, col}), ctx),
          AffineMap::get(rank, 0, batchedExprs({kq, col, kr}), ctx)},
      parallel(rank), [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, args[0]);
      });
  return fuseProducer(rewriter, pack);
}

Value DotLowering::lessColumnSums(Value c, Value packed) {
  // colsum of Bp over (batch,) k / g, n, k % g (in its order).
  Type i32 = rewriter.getI32Type();
  unsigned sRank = lead + 3, cRank = lead + 2;
  SmallVector<utils::IteratorType> sIters = parallel(sRank);
  sIters[lead] = sIters[lead + 2] = utils::IteratorType::reduction;
  RankedTensorType sumType = shaped({n}, i32);
  Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
  Value sums0 =
      linalg::FillOp::create(rewriter, loc, zero, empty(sumType)).getResult(0);
  AffineExpr column = getAffineDimExpr(lead + 1, ctx);
  Value sums =
      linalg::GenericOp::create(
          rewriter, loc, TypeRange{sumType}, ValueRange{packed},
          ValueRange{sums0},
          ArrayRef<AffineMap>{
              AffineMap::getMultiDimIdentityMap(sRank, ctx),
              AffineMap::get(sRank, 0, batchedExprs({column}), ctx)},
          sIters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value wide = arith::ExtSIOp::create(nb, l, i32, args[0]);
            linalg::YieldOp::create(
                nb, l, Value(arith::AddIOp::create(nb, l, args[1], wide)));
          })
          .getResult(0);
  AffineMap cId = AffineMap::getMultiDimIdentityMap(cRank, ctx);
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{c.getType()}, ValueRange{c, sums},
             ValueRange{empty(c)},
             ArrayRef<AffineMap>{
                 cId, AffineMap::get(cRank, 0, batchedExprs({column}), ctx),
                 cId},
             parallel(cRank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value seven = arith::ConstantIntOp::create(nb, l, i32, 7);
               Value off = arith::ShLIOp::create(nb, l, args[1], seven);
               linalg::YieldOp::create(
                   nb, l, Value(arith::SubIOp::create(nb, l, args[0], off)));
             })
      .getResult(0);
}

scf::ValueVector DotLowering::blocks(Value a, Value packed, Value c,
                                     ModuleOp module, bool zeroInit) {
  int64_t g = dot.group;
  SmallVector<ReassociationIndices> merge;
  if (batched)
    merge.push_back({0});
  merge.push_back({int64_t(lead)});
  merge.push_back({int64_t(lead + 1), int64_t(lead + 2)});
  Value bp = tensor::CollapseShapeOp::create(
      rewriter, loc, shaped({k / g, n * g}, operand), packed, merge);
  auto index = [&](OpBuilder &nb, int64_t v) {
    return arith::ConstantIndexOp::create(nb, loc, v).getResult();
  };
  SmallVector<Value> lbs, ubs, steps;
  if (batched) {
    lbs.push_back(index(rewriter, 0));
    ubs.push_back(index(rewriter, ranges[0]));
    steps.push_back(index(rewriter, 1));
  }
  lbs.append({index(rewriter, 0), index(rewriter, 0)});
  ubs.append({index(rewriter, m), index(rewriter, n)});
  steps.append({index(rewriter, kBlockRows), index(rewriter, kBlockCols)});
  Type i32 = rewriter.getI32Type();
  auto lanes = VectorType::get({kDotLanes}, accumulator);
  auto operands = VectorType::get({kDotLanes * g}, operand);
  AffineMap minor1 = AffineMap::getMinorIdentityMap(lead + 2, 1, ctx);
  SmallVector<bool> inBounds = {true};
  if (!module.lookupSymbol(dot.placeholder)) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(
        rewriter, loc, dot.placeholder,
        rewriter.getFunctionType({lanes, operands, operands}, {lanes}));
    decl.setPrivate();
  }
  constexpr int64_t halves = kBlockCols / kDotLanes;
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, ValueRange{c},
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange iter) {
        Value i0 = ivs[lead], j0 = ivs[lead + 1];
        auto at = [&](Value row, Value column) {
          SmallVector<Value> idx;
          if (batched)
            idx.push_back(ivs[0]);
          idx.append({row, column});
          return idx;
        };
        auto plus = [&](OpBuilder &ob, Value x, int64_t v) {
          return v ? arith::AddIOp::create(ob, l, x, index(ob, v)).getResult()
                   : x;
        };
        Value padAcc = arith::ConstantOp::create(nb, l, accumulator,
                                                 nb.getZeroAttr(accumulator));
        Value padOperand =
            arith::ConstantOp::create(nb, l, operand, nb.getZeroAttr(operand));
        SmallVector<Value> accs;
        Value zeros =
            zeroInit ? arith::ConstantOp::create(nb, l, lanes,
                                                 nb.getZeroAttr(lanes))
                           .getResult()
                     : Value();
        for (int64_t r = 0; r < kBlockRows; ++r)
          for (int64_t h = 0; h < halves; ++h)
            accs.push_back(
                zeroInit ? zeros
                         : vector::TransferReadOp::create(
                               nb, l, lanes, iter[0],
                               at(plus(nb, i0, r), plus(nb, j0, h * kDotLanes)),
                               padAcc, minor1, inBounds)
                               .getResult());
        Value group = index(nb, g);
        auto kLoop = scf::ForOp::create(
            nb, l, index(nb, 0), index(nb, k / g), index(nb, 1), accs,
            [&](OpBuilder &kb, Location kl, Value kk, ValueRange acc) {
              SmallVector<Value> columns;
              for (int64_t h = 0; h < halves; ++h) {
                Value start = arith::MulIOp::create(
                    kb, kl, plus(kb, j0, h * kDotLanes), group);
                columns.push_back(vector::TransferReadOp::create(
                    kb, kl, operands, bp, at(kk, start), padOperand, minor1,
                    inBounds));
              }
              Value kOff = arith::MulIOp::create(kb, kl, kk, group);
              SmallVector<Value> next;
              for (int64_t r = 0; r < kBlockRows; ++r) {
                // A's g operands of this row and step (32 bits), in every lane.
                Value word = vector::TransferReadOp::create(
                    kb, kl, VectorType::get({g}, operand), a,
                    at(plus(kb, i0, r), kOff), padOperand, minor1, inBounds);
                Value one = vector::BitCastOp::create(
                    kb, kl, VectorType::get({1}, i32), word);
                Value splat = vector::BroadcastOp::create(
                    kb, kl, VectorType::get({kDotLanes}, i32),
                    vector::ExtractOp::create(kb, kl, one, int64_t(0)));
                Value row = vector::BitCastOp::create(kb, kl, operands, splat);
                for (int64_t h = 0; h < halves; ++h)
                  next.push_back(
                      func::CallOp::create(
                          kb, kl, dot.placeholder, TypeRange{lanes},
                          ValueRange{acc[r * halves + h], row, columns[h]})
                          .getResult(0));
              }
              scf::YieldOp::create(kb, kl, next);
            });
        Value out = iter[0];
        for (int64_t r = 0; r < kBlockRows; ++r)
          for (int64_t h = 0; h < halves; ++h)
            out = vector::TransferWriteOp::create(
                      nb, l, kLoop.getResult(r * halves + h), out,
                      at(plus(nb, i0, r), plus(nb, j0, h * kDotLanes)),
                      minor1, inBounds)
                      .getResult();
        return scf::ValueVector{out};
      });
  markIndependent(nest.loops.front());
  return nest.results;
}

Value DotLowering::tiles(Value a, Value packed, Value c, bool zeroInit) {
  int64_t g = dot.group;
  unsigned rank = lead + 4; // (batch,) m, n, k / g, k % g
  AffineExpr row = getAffineDimExpr(lead, ctx),
             col = getAffineDimExpr(lead + 1, ctx),
             kq = getAffineDimExpr(lead + 2, ctx),
             kr = getAffineDimExpr(lead + 3, ctx);
  SmallVector<utils::IteratorType> iters = parallel(rank);
  iters[lead + 2] = iters[lead + 3] = utils::IteratorType::reduction;
  auto op = linalg::GenericOp::create(
      rewriter, loc, TypeRange{c.getType()}, ValueRange{a, packed},
      ValueRange{c},
      ArrayRef<AffineMap>{
          AffineMap::get(rank, 0, batchedExprs({row, kq * g + kr}), ctx),
          AffineMap::get(rank, 0, batchedExprs({kq, col, kr}), ctx),
          AffineMap::get(rank, 0, batchedExprs({row, col}), ctx)},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value sum;
        if (isa<FloatType>(accumulator)) {
          Value x = arith::ExtFOp::create(nb, l, accumulator, args[0]),
                y = arith::ExtFOp::create(nb, l, accumulator, args[1]);
          sum = arith::AddFOp::create(nb, l, args[2],
                                      arith::MulFOp::create(nb, l, x, y));
        } else {
          Value x = arith::ExtSIOp::create(nb, l, accumulator, args[0]),
                y = arith::ExtSIOp::create(nb, l, accumulator, args[1]);
          sum = arith::AddIOp::create(nb, l, args[2],
                                      arith::MulIOp::create(nb, l, x, y));
        }
        linalg::YieldOp::create(nb, l, sum);
      });
  op->setAttr(kTileContraction, rewriter.getUnitAttr());
  if (zeroInit)
    op->setAttr(kTileZeroInit, rewriter.getUnitAttr());
  return op.getResult(0);
}

/// `v` with zeros after the end of its last two dimensions, up to multiples
/// of `rows` and `cols` (`v` itself where they are).
SmallVector<int64_t> paddedShape(Value v, int64_t rows, int64_t cols) {
  SmallVector<int64_t> shape(cast<RankedTensorType>(v.getType()).getShape());
  size_t rank = shape.size();
  shape[rank - 2] = llvm::divideCeil(shape[rank - 2], rows) * rows;
  shape[rank - 1] = llvm::divideCeil(shape[rank - 1], cols) * cols;
  return shape;
}
Value padHigh(RewriterBase &rewriter, Location loc, Value v, int64_t rows,
              int64_t cols) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape = paddedShape(v, rows, cols);
  if (ArrayRef<int64_t>(shape) == type.getShape())
    return v;
  Type element = type.getElementType();
  Value zero = arith::ConstantOp::create(rewriter, loc, element,
                                         rewriter.getZeroAttr(element));
  return tensor::createPadHighOp(RankedTensorType::get(shape, element), v,
                                 zero, /*nofold=*/false, loc, rewriter);
}

/// `features` added to those `fn` is compiled with, whatever the target's
/// defaults.
void addTargetFeatures(Operation *fn, ArrayRef<StringLiteral> features) {
  StringRef name = LLVM::TargetFeaturesAttr::getAttributeName();
  SmallVector<StringRef> all(features.begin(), features.end());
  if (auto old = fn->getAttrOfType<LLVM::TargetFeaturesAttr>(name))
    for (StringAttr f : old.getFeatures())
      if (!llvm::is_contained(all, f.getValue()))
        all.push_back(f.getValue());
  fn->setAttr(name, LLVM::TargetFeaturesAttr::get(fn->getContext(), all));
}

/// `fn` asks the runtime for the AMX tile state on entry
/// (approx_rt_amx_permit), once however many contractions it has.
void requestTiles(RewriterBase &rewriter, FunctionOpInterface fn) {
  auto module = fn->getParentOfType<ModuleOp>();
  OpBuilder::InsertionGuard guard(rewriter);
  if (!module.lookupSymbol(APPROX_RT_AMX_FN)) {
    rewriter.setInsertionPointToStart(module.getBody());
    func::FuncOp::create(rewriter, fn.getLoc(), APPROX_RT_AMX_FN,
                         rewriter.getFunctionType({}, {}))
        .setPrivate();
  }
  Block &entry = fn.getFunctionBody().front();
  if (auto first = dyn_cast<func::CallOp>(entry.front()))
    if (first.getCallee() == APPROX_RT_AMX_FN)
      return;
  rewriter.setInsertionPointToStart(&entry);
  func::CallOp::create(rewriter, fn.getLoc(), APPROX_RT_AMX_FN, TypeRange{},
                       ValueRange{});
}

/// The contraction C[.., M, N] += A[.., M, K] B[.., K, N] with B packed by
/// `dot`'s groups along K (shared: PackedOperands), on AMX tiles where
/// `usable` has them (any static shape, padded: AmxTiles.cpp), else as
/// `dot`'s products in register blocks of 8 x 32 (16 accumulators carried
/// along K; M and N multiples of those, K of the group).
/// For vpdpbusd, whose first operand is unsigned, A is offset by 128
/// (a ^ 0x80) and 128 * colsum(B) subtracted from C first: exact in i32.
/// Failure (types without a `usable` instruction, shape) leaves the op as
/// is.
LogicalResult dotContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                             const UsableDots &usable,
                             PackedOperands &packs) {
  const DotInstruction *found = dotInstructionFor(op);
  if (!found)
    return failure();
  const DotInstruction &dot = *found;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size(); // (batch,) m, n, k
  if (ShapedType::isDynamicShape(ranges))
    return failure();
  auto fn = op->getParentOfType<FunctionOpInterface>();
  if (llvm::is_contained(usable.tiles, found) && fn) {
    // Whole tiles only: M, N and K padded with zeros (AmxTiles.h).
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value c = op.getDpsInits()[0];
    int64_t row = tileRowOperands(elementType(op.getDpsInputs()[0]));
    Value a = padHigh(rewriter, loc, op.getDpsInputs()[0], kTileRows, row),
          b = op.getDpsInputs()[1];
    // C a fill of zeros (the usual init): the accumulators start as zero
    // tiles, and C is neither filled nor read.
    linalg::FillOp fill = zeroFill(c);
    bool zeroInit = fill != nullptr;
    Value cp = zeroInit ? tensor::EmptyOp::create(
                              rewriter, loc,
                              paddedShape(c, kTileRows, kTileRows),
                              elementType(c))
                              .getResult()
                        : padHigh(rewriter, loc, c, kTileRows, kTileRows);
    SmallVector<int64_t> padded = ranges;
    ArrayRef<int64_t> aShape = cast<RankedTensorType>(a.getType()).getShape();
    padded[loops - 3] = aShape[aShape.size() - 2];
    padded[loops - 2] = paddedShape(b, row, kTileRows).back();
    padded[loops - 1] = aShape.back();
    DotLowering lowering(rewriter, op, dot, padded);
    Value packed = packs.get(rewriter, b, lowering.packedType(), [&] {
      return lowering.pack(padHigh(rewriter, loc, b, row, kTileRows));
    });
    Value result = lowering.tiles(a, packed, cp, zeroInit);
    if (cp != c) {
      auto type = cast<RankedTensorType>(c.getType());
      SmallVector<OpFoldResult> zeros(type.getRank(), rewriter.getIndexAttr(0)),
          ones(type.getRank(), rewriter.getIndexAttr(1)),
          sizes = getAsIndexOpFoldResult(rewriter.getContext(),
                                         type.getShape());
      result = tensor::ExtractSliceOp::create(rewriter, loc, result, zeros,
                                              sizes, ones);
    }
    addTargetFeatures(fn, dot.tileFeatures);
    requestTiles(rewriter, fn);
    rewriter.replaceOp(op, result);
    if (fill && fill->use_empty())
      rewriter.eraseOp(fill);
    return success();
  }
  if (!llvm::is_contained(usable.vectors, found) ||
      ranges[loops - 3] % kBlockRows || ranges[loops - 2] % kBlockCols ||
      ranges[loops - 1] % dot.group)
    return failure();
  rewriter.setInsertionPoint(op);
  DotLowering lowering(rewriter, op, dot);
  // vpdpbusd's C starts less the column sums, so not at zero.
  bool zeroInit = !dot.unsignedA && dropZeroFill(rewriter, op);
  Value a = op.getDpsInputs()[0], c = op.getDpsInits()[0];
  if (dot.unsignedA)
    a = lowering.unsignedA(a);
  Value b = op.getDpsInputs()[1];
  Value packed = packs.get(rewriter, b, lowering.packedType(),
                           [&] { return lowering.pack(b); });
  if (dot.unsignedA)
    c = lowering.lessColumnSums(c, packed);
  scf::ValueVector results = lowering.blocks(
      a, packed, c, op->getParentOfType<ModuleOp>(), zeroInit);
  if (fn)
    addTargetFeatures(fn, dot.features);
  rewriter.replaceOp(op, results);
  return success();
}

/// A bf16 contraction (precision_reduce's: bf16 operands, an f32
/// accumulator) that no dot-product instruction took (its shape: a
/// 10-class head, a 3 x 3 convolution's K of 9; or the target) with its
/// operands widened to f32, which is exact, so that it takes the f32
/// register blocks instead of loops (the MLP's bf16 build at batch 256 on
/// AMD EPYC: 1.35x -> 0.89x XLA's time; its head ran in loops). An operand
/// with no other use is widened in the loop that rounded it
/// (fuseProducer).
void widenBf16(RewriterBase &rewriter, linalg::LinalgOp op) {
  auto isBf16 = [](Value v) { return elementType(v).isBF16(); };
  if (!elementType(op.getDpsInits()[0]).isF32() ||
      !llvm::all_of(op.getDpsInputs(), isBf16))
    return;
  Location loc = op.getLoc();
  Type f32 = rewriter.getF32Type();
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = cast<RankedTensorType>(input->get().getType());
    RankedTensorType wide = type.clone(f32);
    AffineMap id =
        AffineMap::getMultiDimIdentityMap(type.getRank(), op.getContext());
    rewriter.setInsertionPoint(op);
    auto widen = linalg::GenericOp::create(
        rewriter, loc, TypeRange{wide}, ValueRange{input->get()},
        ValueRange{tensor::EmptyOp::create(rewriter, loc, wide.getShape(), f32)
                       .getResult()},
        ArrayRef<AffineMap>{id, id},
        SmallVector<utils::IteratorType>(type.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(
              nb, l, Value(arith::ExtFOp::create(nb, l, f32, args[0])));
        });
    rewriter.modifyOpInPlace(op, [&] { input->set(widen.getResult(0)); });
    fuseProducer(rewriter, widen);
  }
}

/// The placeholder calls as their instructions (after bufferization).
void callDotInstructions(ModuleOp module) {
  for (const DotInstruction *dot : kDotInstructions) {
    auto decl = module.lookupSymbol<func::FuncOp>(dot->placeholder);
    if (!decl)
      continue;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() != dot->placeholder)
        return;
      OpBuilder b(call);
      auto intrinsic = LLVM::CallIntrinsicOp::create(
          b, call.getLoc(), call.getResultTypes()[0],
          b.getStringAttr(dot->intrinsic), call.getOperands());
      call.replaceAllUsesWith(intrinsic->getResults());
      call.erase();
    });
    decl.erase();
  }
}

/// The alloca scopes convert-scf-to-openmp wraps each loop body in, inlined
/// where they hold no alloca (a scope must stay one block, and scf to cf
/// splits the loops inside it). One left is an error.
LogicalResult inlineAllocaScopes(ModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  memref::AllocaScopeOp::getCanonicalizationPatterns(patterns,
                                                     module.getContext());
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return failure();
  WalkResult left = module.walk([](memref::AllocaScopeOp scope) {
    scope->emitOpError("holds stack allocations in a loop run on threads");
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}

/// Each contraction its own fill of C: CSE merges identical fills (an
/// unrolled RNN's 32 matmuls of one shape share one), and bufferization
/// then copied the shared buffer's blocks out and back around every
/// contraction writing into it (two passes over C each).
void unshareFills(RewriterBase &rewriter,
                  ArrayRef<linalg::LinalgOp> contractions) {
  for (linalg::LinalgOp op : contractions) {
    OpOperand &init = op.getDpsInitsMutable()[0];
    auto fill = init.get().getDefiningOp<linalg::FillOp>();
    if (!fill || fill->hasOneUse())
      continue;
    rewriter.setInsertionPoint(op);
    Value into = fill.getOutputs()[0];
    if (auto empty = into.getDefiningOp<tensor::EmptyOp>())
      into = rewriter.clone(*empty)->getResult(0);
    auto own = linalg::FillOp::create(rewriter, fill.getLoc(), fill.value(),
                                      into);
    rewriter.modifyOpInPlace(op, [&] { init.set(own.getResult(0)); });
  }
}

/// Elementwise chains fused into their consumers (JAX writes one op per
/// step, broadcasts and transposes included): one loop nest per chain and
/// no tensor in between. Transposes, broadcasts, maps and reductions become
/// generics first; contractions stay named (their register blocks) and a
/// producer with several uses is not duplicated.
LogicalResult fuseElementwise(RewriterBase &rewriter, ModuleOp module) {
  SmallVector<linalg::LinalgOp> named;
  module.walk([&](linalg::LinalgOp op) {
    if (isa<linalg::TransposeOp, linalg::BroadcastOp, linalg::MapOp,
            linalg::ReduceOp, linalg::ElementwiseOp>(op.getOperation()) &&
        op.hasPureTensorSemantics())
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitOpError("cannot generalize for fusion");
  }
  RewritePatternSet patterns(module.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand *use) {
    Operation *producer = use->get().getDefiningOp();
    return producer && producer->hasOneUse();
  });
  return applyPatternsGreedily(module, std::move(patterns));
}

struct LowerTensorCodePass
    : PassWrapper<LowerTensorCodePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerTensorCodePass)

  LowerTensorCodePass()
      : tensorPipeline(ModuleOp::getOperationName()),
        loopPipeline(ModuleOp::getOperationName()),
        threadPipeline(ModuleOp::getOperationName()) {
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    bufferize.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    tensorPipeline.addPass(bufferization::createOneShotBufferizePass(bufferize));
    bufferization::buildBufferDeallocationPipeline(tensorPipeline);
    tensorPipeline.addPass(createConvertBufferizationToMemRefPass());
    loopPipeline.addPass(createConvertLinalgToParallelLoopsPass());
    // A register block's 2-D transfers as unrolled row transfers.
    loopPipeline.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
    loopPipeline.addPass(memref::createExpandStridedMetadataPass());
    loopPipeline.addPass(createLowerAffinePass());
    // bf16 conversions as integer ops: no libgcc/compiler-rt helper needed.
    arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = true;
    loopPipeline.addPass(arith::createArithExpandOpsPass(expand));
    threadPipeline.addPass(createConvertSCFToOpenMPPass());
  }
  LowerTensorCodePass(const LowerTensorCodePass &other)
      : PassWrapper(other), tensorPipeline(other.tensorPipeline),
        loopPipeline(other.loopPipeline), threadPipeline(other.threadPipeline) {
  }

  Option<DotProduct> dotProduct{
      *this, "dot-product", llvm::cl::desc(kDotProductDescription),
      llvm::cl::init(DotProduct::Host), dotProductValues()};

  StringRef getArgument() const final { return "approx-lower-tensor-code"; }
  StringRef getDescription() const final {
    return "Bufferize and lower linalg/tensor code (modules with tensors only)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    tensorPipeline.getDependentDialects(registry);
    loopPipeline.getDependentDialects(registry);
    threadPipeline.getDependentDialects(registry);
    registry.insert<amx::AMXDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                    scf::SCFDialect,
                    tensor::TensorDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasTensors(module))
      return;
    IRRewriter rewriter(&getContext());
    if (failed(fuseElementwise(rewriter, module)))
      return signalPassFailure();
    reassociateReductions(module);
    SmallVector<linalg::LinalgOp> contractions;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) &&
          op.hasPureTensorSemantics())
        contractions.push_back(op);
    });
    unshareFills(rewriter, contractions);
    UsableDots usable = usableDotInstructions(dotProduct);
    PackedOperands packs;
    for (linalg::LinalgOp op : contractions)
      if (failed(dotContraction(rewriter, op, usable, packs))) {
        widenBf16(rewriter, op);
        if (failed(vectorizeContraction(rewriter, op, packs)))
          return signalPassFailure();
      }
    if (failed(runPipeline(tensorPipeline, module)))
      return signalPassFailure();
    callDotInstructions(module);
    lowerTileContractions(module);
    // Buffer copies become loops like the rest (memref.copy of a strided
    // buffer would call MLIR's runtime library otherwise).
    module.walk([](memref::CopyOp copy) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
    if (failed(runPipeline(loopPipeline, module)))
      return signalPassFailure();
    // Large independent loops on OpenMP threads.
    chooseParallelLoops(module);
    if (failed(runPipeline(threadPipeline, module)) ||
        failed(inlineAllocaScopes(module)))
      return signalPassFailure();
    // erf / erfc (BERT's GELU) as polynomials the vectorizer handles, not
    // one libm call per element.
    if (failed(expandErf(module)))
      return signalPassFailure();
    expandExpAndTanh(module);
  }

  OpPassManager tensorPipeline, loopPipeline, threadPipeline;
};

} // namespace

std::unique_ptr<Pass> createLowerTensorCodePass(DotProduct dotProduct) {
  auto pass = std::make_unique<LowerTensorCodePass>();
  pass->dotProduct = dotProduct;
  return pass;
}

namespace {
struct PolynomialErfPass
    : PassWrapper<PolynomialErfPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PolynomialErfPass)
  StringRef getArgument() const override { return "approx-polynomial-erf"; }
  StringRef getDescription() const override {
    return "math.erf and math.erfc as polynomials (what the native lowering "
           "does; IREE has no math.erfc lowering)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect,
                    vector::VectorDialect>();
  }
  void runOnOperation() override {
    if (failed(expandErf(getOperation())))
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> createPolynomialErfPass() {
  return std::make_unique<PolynomialErfPass>();
}

} // namespace approx
