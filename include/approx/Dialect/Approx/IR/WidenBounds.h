//===- WidenBounds.h - accept annotation values outside their bounds -*- C++ -*-===//
//
// The seed prototype did not check an annotation's values against its own
// bounds, so files written for it can hold a threshold of 2000 with bounds
// [1, 40], or a decision not listed in `decision_values`. The verifier
// rejects them (the tuning space would not contain the annotated
// configuration). On request (approx-cc / approx-tune
// --approx-widen-bounds), such values are accepted instead: each one gets a
// located warning, and the bounds or the value list grow to include it, so
// the space stays consistent and contains the file's own configuration.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_DIALECT_APPROX_IR_WIDENBOUNDS_H
#define APPROX_DIALECT_APPROX_IR_WIDENBOUNDS_H

namespace mlir {
class Operation;
} // namespace mlir

namespace approx {

/// The tools' option (approx-cc, approx-tune) and its help.
inline constexpr const char *kWidenBoundsOption = "approx-widen-bounds";
inline constexpr const char *kWidenBoundsHelp =
    "Accept annotation values outside their own bounds (files written for "
    "the seed prototype): a warning per value, and the bounds or "
    "decision_values widened to include it";

/// Widens the bounds of every decision-tree and static-transform annotation
/// op under `root` (itself included) to the values the annotation holds: a
/// threshold outside [thresholds_lowers[i], thresholds_uppers[i]] moves that
/// bound, a decision or knob_val missing from `decision_values` joins it
/// (kept sorted). Emits one warning per widened value at the annotation.
/// Only bounds move: every other rule (lengths, order, signs, kinds) stays
/// the verifier's. Returns the number of values widened for.
unsigned widenAnnotationBounds(mlir::Operation *root);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_IR_WIDENBOUNDS_H
