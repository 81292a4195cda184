//===- Exhaustive.cpp - every configuration once ---------------------------===//
#include "Phases.h"

#include <algorithm>
#include <set>

namespace approx::tune::search {

/// Every configuration once. Under a time budget the order is shuffled
/// (seeded), so a budget that runs out leaves a uniform sample of the
/// space rather than its first corner in enumeration order.
void runExhaustive(Run &run) {
  // Every representative once (configurations that run the same code
  // enumerate to the same one).
  std::vector<Config> all;
  std::set<std::string> listed;
  run.encoding.enumerate([&](const Config &c) {
    std::string k = run.keyOf(c);
    if (!run.seen.count(k) && listed.insert(k).second)
      all.push_back(c);
    return true;
  });
  if (run.options.timeBudget > 0)
    for (size_t i = all.size(); i > 1; --i)
      std::swap(all[i - 1], all[run.rng.below(i)]);
  size_t w = std::max<size_t>(1, run.options.workers);
  for (size_t begin = 0; begin < all.size(); begin += w) {
    if (!run.budgetLeft())
      return; // it says why
    std::vector<Pending> batch;
    for (size_t i = begin; i < std::min(all.size(), begin + w); ++i)
      batch.push_back({all[i], "exhaustive", {}});
    run.measure(batch, true);
  }
  run.result.stopReason = "space enumerated";
}

} // namespace approx::tune::search
