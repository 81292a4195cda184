//===- ParamNames.h - names of knobs and tunable parameters -----*- C++ -*-===//
//
// The one definition of how knobs and their tunable parameters are named
// (DESIGN §5, the seed's names): a knob is `<func>` or `<func>_<knob_name>`;
// its parameters are `<knob>_threshold_<i>` and `<knob>_decision_<j>` for a
// decision tree and `<knob>_knob_val` for a static transform. config-approx,
// emit-approx, the tuner's space and the runtime table all use these.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_SUPPORT_PARAMNAMES_H
#define APPROX_SUPPORT_PARAMNAMES_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace approx::names {

/// The knob of function `func`, optionally named `knobName` in it.
inline std::string knob(llvm::StringRef func,
                        std::optional<llvm::StringRef> knobName) {
  return knobName ? (func + "_" + *knobName).str() : func.str();
}

/// Suffixes after `<knob>_` (the tuner groups parameters by them).
inline std::string thresholdSuffix(unsigned i) {
  return "threshold_" + std::to_string(i);
}
inline std::string decisionSuffix(unsigned j) {
  return "decision_" + std::to_string(j);
}
inline std::string knobValSuffix() { return "knob_val"; }

inline std::string threshold(llvm::StringRef knob, unsigned i) {
  return (knob + "_" + thresholdSuffix(i)).str();
}
inline std::string decision(llvm::StringRef knob, unsigned j) {
  return (knob + "_" + decisionSuffix(j)).str();
}
inline std::string knobVal(llvm::StringRef knob) {
  return (knob + "_" + knobValSuffix()).str();
}

} // namespace approx::names

#endif // APPROX_SUPPORT_PARAMNAMES_H
