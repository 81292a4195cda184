//===- ScheduleParams.cpp - a transform script's tunable choices ----------===//
#include "approx/Dialect/Approx/Transforms/ScheduleParams.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace mlir;
namespace tune = mlir::transform::tune;

namespace approx {

static constexpr int64_t kMaxValues = 65536;

/// The integer values of a tune.knob's options.
static FailureOr<std::vector<int64_t>> knobValues(tune::KnobOp knob) {
  std::vector<int64_t> values;
  Attribute options = knob.getOptions();
  auto bad = [&] {
    return knob.emitOpError("options of a tuned knob must be an array of "
                            "integers or bounds {lb = L, ub = U[, step = S]}, "
                            "got ")
           << options;
  };
  if (auto array = dyn_cast<ArrayAttr>(options)) {
    for (Attribute a : array) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i || (!i.getType().isSignlessInteger() && !i.getType().isIndex()))
        return bad();
      values.push_back(i.getInt());
    }
  } else if (auto dict = dyn_cast<DictionaryAttr>(options)) {
    auto lb = dict.getAs<IntegerAttr>("lb"), ub = dict.getAs<IntegerAttr>("ub");
    auto step = dict.getAs<IntegerAttr>("step");
    if (!lb || !ub || dict.size() != (step ? 3u : 2u))
      return bad();
    int64_t s = step ? step.getInt() : 1;
    if (s <= 0 || lb.getInt() > ub.getInt())
      return knob.emitOpError("bounds need lb <= ub and a positive step, got ")
             << options;
    if ((ub.getInt() - lb.getInt()) / s >= kMaxValues)
      return knob.emitOpError("bounds ")
             << options << " give more than " << kMaxValues << " values";
    for (int64_t v = lb.getInt(); v <= ub.getInt(); v += s)
      values.push_back(v);
  } else {
    return bad();
  }
  if (values.empty())
    return bad();
  if (values.size() > size_t(kMaxValues))
    return knob.emitOpError("more than ") << kMaxValues << " options";
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

FailureOr<std::vector<ScheduleParam>> scheduleParams(ModuleOp module) {
  std::vector<ScheduleParam> params;
  llvm::StringMap<Operation *> names;
  WalkResult walked = module.walk([&](Operation *op) {
    ScheduleParam p;
    p.op = op;
    if (auto knob = dyn_cast<tune::KnobOp>(op)) {
      FailureOr<std::vector<int64_t>> values = knobValues(knob);
      if (failed(values))
        return WalkResult::interrupt();
      p.name = knob.getName().str();
      p.values = std::move(*values);
      if (auto sel = dyn_cast_or_null<IntegerAttr>(knob.getSelectedAttr()))
        p.selected = sel.getInt();
    } else if (auto alt = dyn_cast<tune::AlternativesOp>(op)) {
      if (alt.getSelectedRegionParam())
        return WalkResult::advance();
      p.name = alt.getName().str();
      for (unsigned r = 0; r < alt->getNumRegions(); ++r)
        p.values.push_back(r);
      if (auto sel = alt.getSelectedRegionAttr())
        p.selected = sel->getSExtValue();
    } else {
      return WalkResult::advance();
    }
    auto [it, fresh] = names.try_emplace(p.name, op);
    if (!fresh) {
      InFlightDiagnostic diag = op->emitOpError("tunable name '")
                                << p.name << "' is used twice";
      diag.attachNote(it->second->getLoc()) << "first used here";
      return WalkResult::interrupt();
    }
    params.push_back(std::move(p));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  return params;
}

LogicalResult selectSchedule(const ScheduleParam &p, int64_t value,
                             Location where) {
  if (!std::binary_search(p.values.begin(), p.values.end(), value)) {
    InFlightDiagnostic diag = emitError(where)
                              << "'" << p.name << "' = " << value
                              << " is not one of its options {";
    for (auto [i, v] : llvm::enumerate(p.values))
      diag << (i ? ", " : "") << v;
    diag << "}";
    diag.attachNote(p.op->getLoc()) << "the tunable is here";
    return failure();
  }
  Builder b(p.op->getContext());
  if (auto alt = dyn_cast<tune::AlternativesOp>(p.op)) {
    alt.setSelectedRegionAttrAttr(b.getIndexAttr(value));
    return success();
  }
  auto knob = cast<tune::KnobOp>(p.op);
  // An array's own element (the op's verifier compares attributes).
  if (auto array = dyn_cast<ArrayAttr>(knob.getOptions()))
    for (Attribute a : array)
      if (cast<IntegerAttr>(a).getInt() == value) {
        knob.setSelectedAttr(a);
        return success();
      }
  knob.setSelectedAttr(b.getI64IntegerAttr(value));
  return success();
}

FailureOr<std::vector<std::pair<std::string, int64_t>>> selectSchedules(
    ModuleOp module, function_ref<std::optional<int64_t>(StringRef)> valueOf,
    function_ref<Location(const ScheduleParam &)> where) {
  FailureOr<std::vector<ScheduleParam>> params = scheduleParams(module);
  if (failed(params))
    return failure();
  std::vector<std::pair<std::string, int64_t>> chosen;
  for (const ScheduleParam &p : *params) {
    std::optional<int64_t> value = valueOf(p.name);
    if (!value)
      continue;
    if (failed(selectSchedule(p, *value, where(p))))
      return failure();
    chosen.emplace_back(p.name, *value);
  }
  return chosen;
}

} // namespace approx
