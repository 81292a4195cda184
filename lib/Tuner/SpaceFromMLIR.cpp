//===- SpaceFromMLIR.cpp - a program's space from its annotations ---------===//
#include "approx/Tuner/SpaceFromMLIR.h"

#include "approx/Dialect/Approx/IR/ApproxOps.h"

#include <algorithm>

using namespace mlir;

namespace approx::tune {

namespace {

std::string knobName(StringRef func, std::optional<StringRef> knob) {
  return knob ? (func + "_" + *knob).str() : func.str();
}

std::vector<int64_t> sortedUnique(ArrayRef<int32_t> xs) {
  std::vector<int64_t> v(xs.begin(), xs.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

} // namespace

Space spaceFromAnnotations(ModuleOp module) {
  Space space;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto dt = dyn_cast<DecisionTreeAnnotationOp>(op)) {
      KnobParams k;
      k.name = knobName(dt.getFuncName(), dt.getKnobName());
      k.function = dt.getFuncName().str();
      k.transformType = dt.getTransformType().str();
      k.decisionTree = true;
      ArrayRef<int32_t> ts = dt.getThresholds();
      for (auto [i, t] : llvm::enumerate(ts)) {
        TunableParam p;
        p.name = k.name + "_threshold_" + std::to_string(i);
        p.current = t;
        p.lower = dt.getThresholdsLowers() ? (*dt.getThresholdsLowers())[i] : t;
        p.upper = dt.getThresholdsUppers() ? (*dt.getThresholdsUppers())[i] : t;
        p.kind = ParamKind::Threshold;
        p.function = k.function;
        p.knob = k.name;
        p.index = unsigned(i);
        k.thresholds.push_back(space.params.size());
        space.params.push_back(p);
      }
      std::vector<int64_t> values = sortedUnique(
          dt.getDecisionValues() ? *dt.getDecisionValues() : dt.getDecisions());
      for (auto [j, d] : llvm::enumerate(dt.getDecisions())) {
        TunableParam p;
        p.name = k.name + "_decision_" + std::to_string(j);
        p.current = d;
        p.values = values;
        p.lower = values.front();
        p.upper = values.back();
        p.kind = ParamKind::Decision;
        p.function = k.function;
        p.knob = k.name;
        p.index = unsigned(j);
        k.decisions.push_back(space.params.size());
        space.params.push_back(p);
      }
      space.knobs.push_back(k);
    } else if (auto st = dyn_cast<StaticTransformAnnotationOp>(op)) {
      KnobParams k;
      k.name = knobName(st.getFuncName(), st.getKnobName());
      k.function = st.getFuncName().str();
      k.transformType = st.getTransformType().str();
      int32_t v = int32_t(st.getKnobValAttr().getInt());
      TunableParam p;
      p.name = k.name + "_knob_val";
      p.current = v;
      p.values = st.getDecisionValues() ? sortedUnique(*st.getDecisionValues())
                                        : std::vector<int64_t>{v};
      p.lower = p.values.front();
      p.upper = p.values.back();
      p.kind = ParamKind::KnobVal;
      p.function = k.function;
      p.knob = k.name;
      k.knobVal = space.params.size();
      space.params.push_back(p);
      space.knobs.push_back(k);
    }
  }
  return space;
}

} // namespace approx::tune
