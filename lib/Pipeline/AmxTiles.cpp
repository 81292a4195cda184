//===- AmxTiles.cpp - int8 / bf16 contractions on AMX tiles ---------------===//
//
// Intel AMX multiplies tiles of up to 16 rows of 64 bytes: tdpbf16ps adds,
// to a 16 x 16 f32 tile, a 16 x 32 bf16 tile of A times a tile of B whose
// 16 rows each hold 16 columns' pairs along K (tdpbssd the same with i8
// quadruples into i32). The tensor phase (LowerTensorCode.cpp) packs B that
// way, as it does for AVX-512's dot products, pads M and N to multiples of
// 16 and K to a multiple of a tile row (64 bytes of operands) with zeros,
// and marks the contraction; after bufferization each marked generic
// becomes blocks of 2 x 2 accumulator tiles (the other four of the eight
// tile registers hold two tiles of A and two of B), each loaded from C
// once, multiplied along K a tile row per step, and stored once; a last
// row or column of tiles short of a whole block takes a 1-tile side. Every
// tile is whole: LLVM gives each tile register one shape per function, so
// narrower edge tiles (three or four shapes per contraction) ran it out of
// registers as soon as a function had a few.
//
//===----------------------------------------------------------------------===//
#include "AmxTiles.h"
#include "LowerTensorCode.h"

#include "approx_runtime.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {

bool processHasAmxTiles() { return approx_rt_amx_request() == 0; }

int64_t tileRowOperands(Type operand) {
  return 64 * 8 / operand.getIntOrFloatBitWidth();
}

namespace {

/// Tiles per block side.
constexpr int64_t kBlockTiles = 2;

/// A stretch of rows or columns: `count` blocks of `tiles` whole tiles from
/// `start`.
struct Stretch {
  int64_t start, count, tiles;
  int64_t span() const { return tiles * kTileRows; }
};

/// Whole blocks of kBlockTiles tiles, then the tiles left (`size` is a
/// multiple of kTileRows).
SmallVector<Stretch> stretches(int64_t size) {
  SmallVector<Stretch> out;
  int64_t tiles = size / kTileRows;
  if (tiles / kBlockTiles)
    out.push_back({0, tiles / kBlockTiles, kBlockTiles});
  if (int64_t rest = tiles % kBlockTiles)
    out.push_back({size - rest * kTileRows, 1, rest});
  return out;
}

/// One marked contraction's buffers and shape.
class TileContraction {
public:
  explicit TileContraction(linalg::GenericOp op)
      : op(op), a(op.getDpsInputs()[0]), packed(op.getDpsInputs()[1]),
        c(op.getDpsInits()[0]), zeroInit(op->hasAttr(kTileZeroInit)) {
    auto cType = cast<MemRefType>(c.getType());
    auto pType = cast<MemRefType>(packed.getType());
    batched = cType.getRank() == 3;
    m = cType.getDimSize(batched);
    n = cType.getDimSize(batched + 1);
    k = cast<MemRefType>(a.getType()).getShape().back();
    group = pType.getShape().back();
    operand = pType.getElementType();
    accumulator = cType.getElementType();
    kStep = tileRowOperands(operand);
  }

  /// Whether the tiles can read and write these buffers: whole tiles, unit
  /// inner strides.
  bool fits() const {
    auto last = [](Value v) {
      return cast<MemRefType>(v.getType()).isLastDimUnitStride();
    };
    return last(a) && last(c) &&
           cast<MemRefType>(packed.getType()).getLayout().isIdentity() &&
           !ShapedType::isDynamic(m) && !ShapedType::isDynamic(n) &&
           m % kTileRows == 0 && n % kTileRows == 0 && k % kStep == 0;
  }

  void build();

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  }
  Value plus(OpBuilder &b, Value x, int64_t v) {
    return v ? arith::AddIOp::create(b, loc, x, index(b, v)).getResult() : x;
  }
  SmallVector<Value> at(ValueRange batch, Value row, Value col) {
    SmallVector<Value> idx(batch.begin(), batch.end());
    idx.append({row, col});
    return idx;
  }
  /// The blocks of one row stretch by one column stretch.
  void nest(OpBuilder &b, const Stretch &rows, const Stretch &cols);
  /// One block of rows x cols tiles: C's tiles at (i0, j0) loaded,
  /// multiplied along K, stored.
  void block(OpBuilder &b, ValueRange batch, Value i0, int64_t rows, Value j0,
             int64_t cols);
  /// One step along K at `kk`: the accumulators after.
  SmallVector<Value> step(OpBuilder &b, ValueRange batch, Value i0,
                          int64_t rows, Value j0, int64_t cols, Value kk,
                          ValueRange accs);

  linalg::GenericOp op;
  Location loc = op.getLoc();
  Value a, packed, c, columns; // columns: packed as [.., K / g, N * g]
  bool zeroInit;
  bool batched;
  int64_t m, n, k, group, kStep;
  Type operand, accumulator;
};

SmallVector<Value> TileContraction::step(OpBuilder &b, ValueRange batch,
                                         Value i0, int64_t rows, Value j0,
                                         int64_t cols, Value kk,
                                         ValueRange accs) {
  auto lhsType = amx::TileType::get({kTileRows, kStep}, operand);
  auto rhsType =
      amx::TileType::get({kStep / group, kTileRows * group}, operand);
  SmallVector<Value> lhs, rhs;
  for (int64_t r = 0; r < rows; ++r)
    lhs.push_back(amx::TileLoadOp::create(
        b, loc, lhsType, a, at(batch, plus(b, i0, r * kTileRows), kk)));
  Value kRow = arith::DivUIOp::create(b, loc, kk, index(b, group));
  for (int64_t cn = 0; cn < cols; ++cn) {
    Value col = arith::MulIOp::create(b, loc, plus(b, j0, cn * kTileRows),
                                      index(b, group));
    rhs.push_back(amx::TileLoadOp::create(b, loc, rhsType, columns,
                                          at(batch, kRow, col)));
  }
  SmallVector<Value> next;
  for (auto [ri, x] : llvm::enumerate(lhs))
    for (auto [ci, y] : llvm::enumerate(rhs)) {
      Value acc = accs[ri * cols + ci];
      next.push_back(
          isa<FloatType>(accumulator)
              ? amx::TileMulFOp::create(b, loc, acc.getType(), x, y, acc)
                    .getResult()
              : amx::TileMulIOp::create(b, loc, acc.getType(), x, y, acc)
                    .getResult());
    }
  return next;
}

void TileContraction::block(OpBuilder &b, ValueRange batch, Value i0,
                            int64_t rows, Value j0, int64_t cols) {
  auto accType = amx::TileType::get({kTileRows, kTileRows}, accumulator);
  SmallVector<SmallVector<Value>> corners;
  SmallVector<Value> accs;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t cn = 0; cn < cols; ++cn) {
      corners.push_back(
          at(batch, plus(b, i0, r * kTileRows), plus(b, j0, cn * kTileRows)));
      accs.push_back(
          zeroInit ? amx::TileZeroOp::create(b, loc, accType).getResult()
                   : amx::TileLoadOp::create(b, loc, accType, c, corners.back())
                         .getResult());
    }
  auto loop = scf::ForOp::create(
      b, loc, index(b, 0), index(b, k), index(b, kStep), accs,
      [&](OpBuilder &kb, Location, Value kk, ValueRange iter) {
        scf::YieldOp::create(kb, loc,
                             step(kb, batch, i0, rows, j0, cols, kk, iter));
      });
  for (auto [acc, corner] : llvm::zip(loop.getResults(), corners))
    amx::TileStoreOp::create(b, loc, c, corner, acc);
}

void TileContraction::nest(OpBuilder &b, const Stretch &rows,
                           const Stretch &cols) {
  SmallVector<Value> lbs, ubs, steps;
  if (batched) {
    lbs.push_back(index(b, 0));
    ubs.push_back(index(b, cast<MemRefType>(c.getType()).getDimSize(0)));
    steps.push_back(index(b, 1));
  }
  // The dimension with more blocks outermost (the one threads share).
  bool colsOuter = cols.count > rows.count;
  for (const Stretch *s :
       colsOuter ? std::array{&cols, &rows} : std::array{&rows, &cols}) {
    lbs.push_back(index(b, s->start));
    ubs.push_back(index(b, s->start + s->count * s->span()));
    steps.push_back(index(b, s->span()));
  }
  scf::LoopNest loops = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, [&](OpBuilder &nb, Location, ValueRange ivs) {
        ValueRange batch = ivs.take_front(batched ? 1 : 0);
        Value outer = ivs[batched], inner = ivs[batched + 1];
        Value i0 = colsOuter ? inner : outer, j0 = colsOuter ? outer : inner;
        block(nb, batch, i0, rows.tiles, j0, cols.tiles);
      });
  markIndependent(loops.loops.front());
}

void TileContraction::build() {
  OpBuilder b(op);
  SmallVector<ReassociationIndices> merge;
  if (batched)
    merge.push_back({0});
  int64_t lead = batched;
  merge.push_back({lead});
  merge.push_back({lead + 1, lead + 2});
  columns = memref::CollapseShapeOp::create(b, loc, packed, merge);
  for (const Stretch &rows : stretches(m))
    for (const Stretch &cols : stretches(n))
      nest(b, rows, cols);
  op.erase();
}

} // namespace

void lowerTileContractions(ModuleOp module) {
  SmallVector<linalg::GenericOp> marked;
  module.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kTileContraction) && op.hasPureBufferSemantics())
      marked.push_back(op);
  });
  for (linalg::GenericOp op : marked) {
    TileContraction contraction(op);
    op->removeAttr(kTileContraction);
    if (contraction.fits()) {
      contraction.build();
    } else if (op->removeAttr(kTileZeroInit)) {
      OpBuilder b(op);
      Value c = op.getDpsInits()[0];
      Type element = cast<MemRefType>(c.getType()).getElementType();
      Value zero = arith::ConstantOp::create(b, op.getLoc(), element,
                                             b.getZeroAttr(element));
      linalg::FillOp::create(b, op.getLoc(), zero, c);
    }
  }
}

} // namespace approx
