//===- ParamHint.h - "did you mean" for unknown parameters ------*- C++ -*-===//
//
// The hint of every "unknown parameter" message (approx-cc, config-approx,
// approx-tune --validate) and of unknown annotation attributes (SourceCheck).
// Plain C++: the tuner's core links no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_SUPPORT_PARAMHINT_H
#define APPROX_SUPPORT_PARAMHINT_H

#include <algorithm>
#include <string>
#include <vector>

namespace approx::names {

/// Levenshtein distance of `a` and `b`, or `cap` when it is at least `cap`.
inline size_t editDistance(const std::string &a, const std::string &b,
                           size_t cap) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= cap)
    return cap;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0], best = row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j - 1] + 1, up + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
      best = std::min(best, row[j]);
    }
    if (best >= cap)
      return cap;
  }
  return std::min(row[b.size()], cap);
}

/// The known name closest to a misspelt `name`, within edit distance 3;
/// empty when none (unknown parameters here, unknown annotation attributes
/// in SourceCheck).
inline std::string closestName(const std::string &name,
                               const std::vector<std::string> &known) {
  std::string best;
  size_t bestDistance = 4;
  for (const std::string &k : known) {
    size_t d = editDistance(name, k, bestDistance);
    if (d < bestDistance)
      bestDistance = d, best = k;
  }
  return best;
}

/// The known parameter an unknown `name` most likely meant: one within
/// edit distance 3 (closestName), or the same parameter of a C++ function spelt with its
/// symbol instead of its source name (`_Z4cndfd_knob_val` for
/// `cndf_knob_val`: the same suffix, the source name inside the symbol);
/// empty when none.
inline std::string closestParam(const std::string &name,
                                const std::vector<std::string> &known) {
  std::string best = closestName(name, known);
  if (!best.empty() || name.rfind("_Z", 0) != 0)
    return best;
  for (const std::string &k : known)
    for (size_t cut = k.find('_'); cut != std::string::npos;
         cut = k.find('_', cut + 1)) {
      std::string base = k.substr(0, cut), suffix = k.substr(cut);
      size_t scope = base.rfind("::");
      std::string leaf = scope == std::string::npos ? base : base.substr(scope + 2);
      if (!leaf.empty() && name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
          name.substr(0, name.size() - suffix.size()).find(leaf) != std::string::npos)
        return k;
    }
  return "";
}

/// " (did you mean 'X'?)" for closestParam's answer, or "".
inline std::string didYouMean(const std::string &name,
                              const std::vector<std::string> &known) {
  std::string best = closestParam(name, known);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

} // namespace approx::names

#endif // APPROX_SUPPORT_PARAMHINT_H
