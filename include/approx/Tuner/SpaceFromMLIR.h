//===- SpaceFromMLIR.h - a program's space from its annotations -*- C++ -*-===//
#ifndef APPROX_TUNER_SPACEFROMMLIR_H
#define APPROX_TUNER_SPACEFROMMLIR_H

#include "approx/Tuner/Space.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace approx::tune {

/// The tunable parameters of the approx.util.annotation ops of `module`
/// (verified annotations, before emit-approx), named as config-approx names
/// them, then those of its transform script (approx::scheduleParams: one
/// knob of kind Schedule each). Thresholds without bounds are fixed at
/// their value; decisions and static knob values range over
/// `decision_values` (else the values given). Fails, with an error on the
/// op, on a script choice scheduleParams rejects or whose name is an
/// annotation parameter's.
mlir::FailureOr<Space> spaceFromAnnotations(mlir::ModuleOp module);

/// Writes `config` into the annotations of `module` (thresholds, decisions,
/// static knob values) and its script's choices, so that the module carries
/// the tuned values; names not in the module are ignored. Returns the
/// number of values written; fails, with an error, on a script choice
/// outside its options.
mlir::FailureOr<unsigned> applyToAnnotations(mlir::ModuleOp module,
                                             const Config &config);

} // namespace approx::tune

#endif // APPROX_TUNER_SPACEFROMMLIR_H
