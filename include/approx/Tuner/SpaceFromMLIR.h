//===- SpaceFromMLIR.h - a program's space from its annotations -*- C++ -*-===//
#ifndef APPROX_TUNER_SPACEFROMMLIR_H
#define APPROX_TUNER_SPACEFROMMLIR_H

#include "approx/Tuner/Space.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace approx::tune {

/// The tunable parameters of the approx.util.annotation ops of `module`
/// (verified annotations, before emit-approx), named as config-approx names
/// them. Thresholds without bounds are fixed at their value; decisions and
/// static knob values range over `decision_values` (else the values given).
Space spaceFromAnnotations(mlir::ModuleOp module);

/// Writes `config` into the annotations of `module` (thresholds, decisions,
/// static knob values), so that the module carries the tuned values; names
/// not in the module are ignored. Returns the number of values written.
unsigned applyToAnnotations(mlir::ModuleOp module, const Config &config);

} // namespace approx::tune

#endif // APPROX_TUNER_SPACEFROMMLIR_H
