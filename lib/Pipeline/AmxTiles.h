//===- AmxTiles.h - int8 / bf16 contractions on AMX tiles -------*- C++ -*-===//
// Private to lib/Pipeline.
#ifndef APPROX_LIB_PIPELINE_AMXTILES_H
#define APPROX_LIB_PIPELINE_AMXTILES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

namespace approx {

/// The attribute (unit) of a contraction that is to run on AMX tiles: a
/// linalg.generic C[.., M, N] += A[.., M, K] * Bp[.., K / g, N, g] with B
/// packed by groups of g along K (the tiles' layout: g = 2 for bf16, 4 for
/// int8), bf16 operands into f32 or signed i8 ones into i32. Its body is
/// the contraction itself, so the op means the same whether or not the
/// tiles take it.
constexpr llvm::StringLiteral kTileContraction = "approx.amx_tiles";

/// The attribute (unit) of a marked contraction whose C is zeros whatever
/// its operand holds (a tensor.empty in place of a fill of zeros): the
/// accumulators start as zero tiles, or C is filled first where the tiles
/// do not take it.
constexpr llvm::StringLiteral kTileZeroInit = "approx.amx_zero_init";

/// Rows of a tile, and columns of an accumulator tile (64 bytes of i32 or
/// f32): a marked contraction's M and N are multiples of it.
constexpr int64_t kTileRows = 16;

/// Operands in a tile row (64 bytes: 32 bf16, 64 i8): a marked
/// contraction's K is a multiple of it.
int64_t tileRowOperands(mlir::Type operand);

/// Whether this process may execute AMX instructions: Linux grants a
/// process the tiles' state on request (the runtime's
/// approx_rt_amx_request, which a build that uses the tiles makes again at
/// run time through approx_rt_amx_permit). False off Linux on x86-64.
bool processHasAmxTiles();

/// Every bufferized generic marked kTileContraction as loops of AMX tile
/// ops: blocks of 2 x 2 accumulator tiles of 16 x 16 (a last row or column
/// of tiles short of a block: a 1-tile side), loaded from C once (zero
/// tiles under kTileZeroInit), K a tile row per step, stored back once;
/// the outermost block loop is independent (it may run on threads). A
/// generic whose buffers the tiles cannot read (an inner stride other than
/// 1) stays for the loop lowering, which computes the same (C filled with
/// zeros first under kTileZeroInit).
void lowerTileContractions(mlir::ModuleOp module);

} // namespace approx

#endif // APPROX_LIB_PIPELINE_AMXTILES_H
