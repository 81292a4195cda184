//===- LowerTensorCode.cpp - tensor code to loops and vectors -------------===//
//
// ML functions (linalg on tensors) become native code in three steps:
//  1. contractions: an f32 matmul / batch matmul whose M and N divide the
//     register block (8 x 32) is tiled into blocks, its K loop tiled by 1 and
//     each step vectorized (vector.contract, lowered to FMAs of outer
//     products); the accumulator's read and write are hoisted out of the K
//     loop (a vector carried by the loop), so a block stays in registers. Other
//     matmuls loop as (batch,) i, k, j, which clang vectorizes along rows.
//  2. one-shot bufferization (identity layouts at function boundaries),
//     ownership-based deallocation;
//  3. linalg to loops (buffer copies included), strided metadata, affine,
//     bf16 conversions as integer ops, erf/erfc as vectorizable polynomials.
//
//===----------------------------------------------------------------------===//
#include "LowerTensorCode.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

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

namespace {

/// The register block of a vectorized matmul: rows x columns of C.
constexpr int64_t kBlockRows = 8, kBlockCols = 32;

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

/// Tiles `op` by `sizes` (0 = untiled), replacing it; the tiled op.
FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *op,
                            ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> r =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(r))
    return failure();
  rewriter.replaceOp(op, r->replacements);
  return r->tiledOps.back();
}

/// One register block C[8x32] += A[8xK] B[Kx32] (with a leading unit batch
/// dim for batch matmuls): the accumulator is read once into a vector, the K
/// loop carries it and adds one outer product per step (a column of A times
/// a row of B), and it is written back once.
LogicalResult vectorizeBlock(RewriterBase &rewriter, linalg::LinalgOp block) {
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
  auto accType = VectorType::get({kBlockRows, kBlockCols}, f32);
  SmallVector<Value> cIdx(rank, zero);
  Value acc0 = vector::TransferReadOp::create(rewriter, loc, accType, c, cIdx,
                                              pad, minor, inBounds);
  Value lb = zero, ub = arith::ConstantIndexOp::create(rewriter, loc, k),
        one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, lb, ub, one, ValueRange{acc0},
      [&](OpBuilder &nb, Location l, Value kk, ValueRange iter) {
        SmallVector<Value> aIdx(rank, zero), bIdx(rank, zero);
        aIdx[rank - 1] = kk;
        bIdx[rank - 2] = kk;
        Value col = vector::TransferReadOp::create(
            nb, l, VectorType::get({kBlockRows, 1}, f32), a, aIdx, pad, minor,
            inBounds);
        Value row = vector::TransferReadOp::create(
            nb, l, VectorType::get({1, kBlockCols}, f32), b, bIdx, pad, minor,
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

/// Register-blocked, vectorized form of an f32 matmul (rank 2) or batch
/// matmul (rank 3) whose M and N divide the block; failure leaves it as is.
LogicalResult vectorizeContraction(RewriterBase &rewriter,
                                   linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size(); // (batch,) m, n, k
  if (ShapedType::isDynamicShape(ranges) ||
      ranges[loops - 3] % kBlockRows || ranges[loops - 2] % kBlockCols ||
      !llvm::all_of(op->getOperandTypes(), [](Type t) {
        return cast<ShapedType>(t).getElementType().isF32();
      }))
    return failure();
  SmallVector<int64_t> block(loops, 0);
  if (loops == 4)
    block[0] = 1;
  block[loops - 3] = kBlockRows;
  block[loops - 2] = kBlockCols;
  FailureOr<Operation *> tiled = tile(rewriter, op, block);
  if (failed(tiled))
    return failure();
  return vectorizeBlock(rewriter, cast<linalg::LinalgOp>(*tiled));
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

struct LowerTensorCodePass
    : PassWrapper<LowerTensorCodePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerTensorCodePass)

  LowerTensorCodePass()
      : tensorPipeline(ModuleOp::getOperationName()),
        loopPipeline(ModuleOp::getOperationName()) {
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    bufferize.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    tensorPipeline.addPass(bufferization::createOneShotBufferizePass(bufferize));
    bufferization::buildBufferDeallocationPipeline(tensorPipeline);
    tensorPipeline.addPass(createConvertBufferizationToMemRefPass());
    loopPipeline.addPass(createConvertLinalgToLoopsPass());
    // A register block's 2-D transfers as unrolled row transfers.
    loopPipeline.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
    loopPipeline.addPass(memref::createExpandStridedMetadataPass());
    loopPipeline.addPass(createLowerAffinePass());
    // bf16 conversions as integer ops: no libgcc/compiler-rt helper needed.
    arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = true;
    loopPipeline.addPass(arith::createArithExpandOpsPass(expand));
  }
  LowerTensorCodePass(const LowerTensorCodePass &other)
      : PassWrapper(other), tensorPipeline(other.tensorPipeline),
        loopPipeline(other.loopPipeline) {}

  StringRef getArgument() const final { return "approx-lower-tensor-code"; }
  StringRef getDescription() const final {
    return "Bufferize and lower linalg/tensor code (modules with tensors only)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    tensorPipeline.getDependentDialects(registry);
    loopPipeline.getDependentDialects(registry);
    registry.insert<linalg::LinalgDialect, scf::SCFDialect,
                    tensor::TensorDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasTensors(module))
      return;
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> contractions;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) &&
          op.hasPureTensorSemantics())
        contractions.push_back(op);
    });
    for (linalg::LinalgOp op : contractions)
      if (failed(vectorizeContraction(rewriter, op)) &&
          failed(interchange(rewriter, op)))
        return signalPassFailure();
    if (failed(runPipeline(tensorPipeline, module)))
      return signalPassFailure();
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
    // erf / erfc (BERT's GELU) as polynomials the vectorizer handles, not
    // one libm call per element.
    if (failed(expandErf(module)))
      signalPassFailure();
  }

  OpPassManager tensorPipeline, loopPipeline;
};

} // namespace

std::unique_ptr<Pass> createLowerTensorCodePass() {
  return std::make_unique<LowerTensorCodePass>();
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
