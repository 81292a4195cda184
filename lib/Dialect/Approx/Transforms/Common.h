//===- Common.h - helpers shared by the approx passes -----------*- C++ -*-===//
// Private to lib/Dialect/Approx/Transforms.
#ifndef APPROX_LIB_TRANSFORMS_COMMON_H
#define APPROX_LIB_TRANSFORMS_COMMON_H

#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class OpBuilder;
} // namespace mlir

namespace approx {

/// Fails (with located errors) when two knobs share an id or a name.
mlir::LogicalResult verifyKnobsUnique(mlir::ModuleOp module);

/// Loops (scf.for / scf.while) directly at the next nesting level below
/// `root`: loops inside non-loop ops (knobs, scf.if, ...) count, loops inside
/// those loops do not. In program order.
llvm::SmallVector<mlir::Operation *> collectChildLoops(mlir::Operation *root);

/// Knobs of `module` in post-order (inner knobs before the knobs around them).
llvm::SmallVector<KnobOp> collectKnobs(mlir::ModuleOp module);

/// A new approx.knob at `b`'s insertion point with the inherent attributes
/// `properties` (id, name, transform_types, ...), result types `types` and
/// an empty body region.
KnobOp createKnob(mlir::OpBuilder &b, mlir::Location loc, mlir::TypeRange types,
                  mlir::Attribute properties);

/// Wraps `op` in a new approx.knob with the inherent attributes
/// `properties` (id, name, transform_types, ...): the knob takes op's place,
/// yields op's results and replaces their uses.
KnobOp wrapInKnob(mlir::Operation *op, mlir::Attribute properties);

/// The smallest id no knob of `module` uses.
int32_t nextKnobId(mlir::ModuleOp module);

/// Moves the body of `knob` into its parent in its place (its results
/// become the values its yield returns) and erases it.
void inlineKnob(KnobOp knob);

/// Erases the state function call computing `state` once nothing uses it
/// (the exact program evaluates no state).
void eraseUnusedStateCall(mlir::Value state);

} // namespace approx

#endif // APPROX_LIB_TRANSFORMS_COMMON_H
