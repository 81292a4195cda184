//===- SpaceFromMLIR.cpp - a program's space from its annotations ---------===//
#include "approx/Tuner/SpaceFromMLIR.h"

#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/IR/SourceNames.h"
#include "approx/Support/ParamNames.h"
#include "approx/Dialect/Approx/Transforms/ScheduleParams.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"

#include <algorithm>

using namespace mlir;

namespace approx::tune {

namespace {

std::vector<int64_t> sortedUnique(ArrayRef<int32_t> xs) {
  std::vector<int64_t> v(xs.begin(), xs.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// A parameter of knob `k`, appended to `space`; returns its index.
size_t addParam(Space &space, const KnobParams &k, std::string suffix,
                ParamKind kind, int64_t current, unsigned index,
                int64_t lower, int64_t upper, std::vector<int64_t> values = {}) {
  TunableParam p;
  p.name = k.name + "_" + suffix;
  p.current = current;
  p.lower = lower;
  p.upper = upper;
  p.values = std::move(values);
  p.kind = kind;
  p.function = k.function;
  p.knob = k.name;
  p.index = index;
  space.params.push_back(std::move(p));
  return space.params.size() - 1;
}

/// Gates the knobs annotated on func_substitute variants (Gate): a knob on
/// `approx_<base>_<v>` is gated by the one func_substitute knob over `base`
/// (its function, or its callee), unless some other knob could select it
/// too or the program calls the variant itself. `bases[k]` is knob k's
/// substituted function, empty when k is not func_substitute.
void gateVariantKnobs(ModuleOp module, Space &space,
                      const std::vector<std::string> &bases) {
  for (KnobParams &g : space.knobs) {
    std::vector<Gate> gates;
    for (size_t k = 0; k < space.knobs.size(); ++k) {
      StringRef rest = g.function;
      if (bases[k].empty() || !rest.consume_front("approx_") ||
          !rest.consume_front(bases[k]) || !rest.consume_front("_"))
        continue;
      int64_t v;
      if (!rest.getAsInteger(10, v) && v > 0 && variantName(bases[k], v) == g.function)
        gates.push_back({k, v});
    }
    if (gates.size() == 1 &&
        SymbolTable::symbolKnownUseEmpty(
            StringAttr::get(module.getContext(), g.function), module))
      g.gate = gates.front();
  }
  // Variants that select each other (a chain of gates back to where it
  // started) would make no knob of the cycle ever run: the cycle is broken
  // at its first knob, which counts as always running.
  for (size_t k = 0; k < space.knobs.size(); ++k) {
    size_t steps = 0;
    for (std::optional<Gate> g = space.knobs[k].gate; g && steps <= space.knobs.size();
         g = space.knobs[g->knob].gate)
      ++steps;
    if (steps > space.knobs.size())
      space.knobs[k].gate.reset();
  }
}

} // namespace

FailureOr<Space> spaceFromAnnotations(ModuleOp module) {
  Space space;
  std::vector<std::string> bases; // per knob: what func_substitute replaces
  auto substituted = [&](auto annotation) {
    bases.push_back(annotation.getKind() != TransformKind::FuncSubstitute ? ""
                    : annotation.getCallee() ? annotation.getCallee()->str()
                                              : annotation.getFuncName().str());
  };
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto dt = dyn_cast<DecisionTreeAnnotationOp>(op)) {
      substituted(dt);
      KnobParams k;
      k.name = names::knob(knobFunctionName(module, dt.getFuncName()),
                           dt.getKnobName());
      k.function = dt.getFuncName().str();
      k.transformType = dt.getTransformType().str();
      k.decisionTree = true;
      for (auto [i, t] : llvm::enumerate(dt.getThresholds()))
        k.thresholds.push_back(addParam(
            space, k, names::thresholdSuffix(i), ParamKind::Threshold,
            t, unsigned(i),
            dt.getThresholdsLowers() ? (*dt.getThresholdsLowers())[i] : t,
            dt.getThresholdsUppers() ? (*dt.getThresholdsUppers())[i] : t));
      std::vector<int64_t> values = sortedUnique(
          dt.getDecisionValues() ? *dt.getDecisionValues() : dt.getDecisions());
      for (auto [j, d] : llvm::enumerate(dt.getDecisions()))
        k.decisions.push_back(addParam(space, k, names::decisionSuffix(j),
                                       ParamKind::Decision, d, unsigned(j),
                                       values.front(), values.back(), values));
      space.knobs.push_back(k);
    } else if (auto st = dyn_cast<StaticTransformAnnotationOp>(op)) {
      substituted(st);
      KnobParams k;
      k.name = names::knob(knobFunctionName(module, st.getFuncName()),
                           st.getKnobName());
      k.function = st.getFuncName().str();
      k.transformType = st.getTransformType().str();
      int32_t v = int32_t(st.getKnobValAttr().getInt());
      std::vector<int64_t> values =
          st.getDecisionValues() ? sortedUnique(*st.getDecisionValues())
                                 : std::vector<int64_t>{v};
      k.knobVal = addParam(space, k, names::knobValSuffix(), ParamKind::KnobVal, v, 0,
                           values.front(), values.back(), values);
      space.knobs.push_back(k);
    }
  }
  gateVariantKnobs(module, space, bases);
  FailureOr<std::vector<ScheduleParam>> schedule = scheduleParams(module);
  if (failed(schedule))
    return failure();
  for (ScheduleParam &s : *schedule) {
    if (const TunableParam *clash = space.find(s.name))
      return s.op->emitOpError("tunable name '")
             << s.name << "' is also a parameter of the annotations of '"
             << clash->function << "'; rename one";
    KnobParams k;
    k.name = s.name;
    k.transformType = "schedule";
    TunableParam p;
    p.name = s.name;
    p.kind = ParamKind::Schedule;
    p.knob = s.name;
    p.values = s.values;
    p.lower = s.values.front();
    p.upper = s.values.back();
    // Without its own choice, the first option (the build then needs one).
    p.current = s.selected.value_or(s.values.front());
    space.params.push_back(std::move(p));
    k.knobVal = space.params.size() - 1;
    space.knobs.push_back(std::move(k));
  }
  return space;
}

FailureOr<unsigned> applyToAnnotations(ModuleOp module, const Config &config) {
  unsigned written = 0;
  auto lookup = [&](const std::string &name, int32_t current) {
    auto it = config.find(name);
    if (it == config.end())
      return current;
    ++written;
    return int32_t(it->second);
  };
  Builder b(module.getContext());
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto dt = dyn_cast<DecisionTreeAnnotationOp>(op)) {
      std::string k = names::knob(knobFunctionName(module, dt.getFuncName()),
                                  dt.getKnobName());
      SmallVector<int32_t> thresholds(dt.getThresholds());
      SmallVector<int32_t> decisions(dt.getDecisions());
      for (auto [i, t] : llvm::enumerate(thresholds))
        t = lookup(names::threshold(k, i), t);
      for (auto [j, d] : llvm::enumerate(decisions))
        d = lookup(names::decision(k, j), d);
      dt.setThresholds(thresholds);
      dt.setDecisions(decisions);
    } else if (auto st = dyn_cast<StaticTransformAnnotationOp>(op)) {
      std::string k = names::knob(knobFunctionName(module, st.getFuncName()),
                                  st.getKnobName());
      st.setKnobValAttr(b.getI32IntegerAttr(
          lookup(names::knobVal(k), int32_t(st.getKnobValAttr().getInt()))));
    }
  }
  auto chosen = selectSchedules(
      module,
      [&](StringRef name) -> std::optional<int64_t> {
        auto it = config.find(name.str());
        if (it == config.end())
          return std::nullopt;
        return it->second;
      },
      [](const ScheduleParam &p) { return p.op->getLoc(); });
  if (failed(chosen))
    return failure();
  return written + unsigned(chosen->size());
}

} // namespace approx::tune
