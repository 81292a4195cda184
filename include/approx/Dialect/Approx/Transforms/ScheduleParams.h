//===- ScheduleParams.h - a transform script's tunable choices --*- C++ -*-===//
//
// The unresolved choices of a transform script (DESIGN §17): each
// transform.tune.knob and transform.tune.alternatives is one tunable
// parameter, named by its name, next to the annotations' parameters. The
// tuner's space (SpaceFromMLIR), config-approx's configuration (through
// apply-transform-script) and the Python API read them here.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_DIALECT_APPROX_TRANSFORMS_SCHEDULEPARAMS_H
#define APPROX_DIALECT_APPROX_TRANSFORMS_SCHEDULEPARAMS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace approx {

/// The module attribute in which apply-transform-script records the schedule
/// values it took from a configuration (name -> value), for config-approx.
constexpr llvm::StringLiteral kAppliedScheduleAttrName = "approx.schedule";

struct ScheduleParam {
  mlir::Operation *op = nullptr; // transform.tune.knob / tune.alternatives
  std::string name;
  std::vector<int64_t> values;     // ascending
  std::optional<int64_t> selected; // the script's own choice
};

/// The schedule parameters of `module`, in program order. A tune.knob's
/// `options` are an array of integers or bounds `{lb = L, ub = U}` (with an
/// optional `step`); tune.alternatives' values are its region indices (one
/// whose choice is a param is not tunable and is skipped). Errors, on the
/// op: other options, more than 65536 values, a name used twice.
mlir::FailureOr<std::vector<ScheduleParam>>
scheduleParams(mlir::ModuleOp module);

/// Resolves `p`'s choice to `value` (sets `selected` / `selected_region`);
/// an error at `where` when `value` is not one of p.values.
mlir::LogicalResult selectSchedule(const ScheduleParam &p, int64_t value,
                                   mlir::Location where);

/// Resolves every schedule parameter of `module` that `valueOf` gives a value
/// for (selectSchedule; an error at `where(p)`); the choices made, by name,
/// in program order.
mlir::FailureOr<std::vector<std::pair<std::string, int64_t>>> selectSchedules(
    mlir::ModuleOp module,
    llvm::function_ref<std::optional<int64_t>(llvm::StringRef)> valueOf,
    llvm::function_ref<mlir::Location(const ScheduleParam &)> where);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_TRANSFORMS_SCHEDULEPARAMS_H
