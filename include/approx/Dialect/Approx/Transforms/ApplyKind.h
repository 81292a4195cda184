//===- ApplyKind.h - one transform kind applied to one op -------*- C++ -*-===//
//
// What a transform.approx.<kind> op does to each payload op (DESIGN §17):
// the payload op is wrapped in an approx.knob holding approx.transform
// <kind> with the value, exactly as emit-approx + emit-management make from
// an annotation, so a kind has one semantics, one verifier and one pattern
// whether it is requested by an annotation or by a transform script.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_DIALECT_APPROX_TRANSFORMS_APPLYKIND_H
#define APPROX_DIALECT_APPROX_TRANSFORMS_APPLYKIND_H

#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir {
class Operation;
class RewriterBase;
} // namespace mlir

namespace approx {

/// A payload module carrying this unit attribute gets approx.knob regions
/// from transform.approx.* ops (made exact or read from a runtime table by
/// the approx pipeline) instead of in-place rewrites.
constexpr llvm::StringLiteral kTransformKnobsAttrName = "approx.transform_knobs";

/// How a kind is applied to a payload op.
enum class KindApplication {
  /// The kind's pattern rewrites the op and the knob is inlined: standard
  /// MLIR that upstream passes lower.
  InPlace,
  /// The knob is left for config-approx / transform-approx (the knob value
  /// then becomes the tunable parameter `<knob>_knob_val`).
  Knob,
};

/// What `kind` needs of the op it applies to ("an scf.for or scf.while
/// loop", ...), or nothing when `op` is such an op.
std::optional<llvm::StringRef> payloadMismatch(TransformKind kind,
                                               mlir::Operation *op);

/// Applies `kind` with knob value `value` (verified by the caller) to
/// `payload`. The knob is named `<function>_<kind>_<id>` with the next free
/// id; `decisionValues` (may be empty) are the values a tuner may give it.
/// Errors are reported at the payload op; on failure the knob is removed
/// again (the kinds' patterns check before they rewrite).
mlir::LogicalResult applyKind(mlir::Operation *payload, TransformKind kind,
                              int32_t value,
                              llvm::ArrayRef<int32_t> decisionValues,
                              KindApplication how);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_TRANSFORMS_APPLYKIND_H
