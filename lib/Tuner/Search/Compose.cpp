//===- Compose.cpp - per-knob profiles composed into joint configurations -===//
#include "Compose.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace approx::tune {

std::vector<KnobOption> paretoOptions(std::vector<KnobOption> options,
                                      size_t keep) {
  if (options.empty())
    return options;
  KnobOption exact = options.front();
  std::stable_sort(options.begin() + 1, options.end(),
                   [](const KnobOption &a, const KnobOption &b) {
                     return a.timeRatio != b.timeRatio ? a.timeRatio < b.timeRatio
                                                       : a.loss < b.loss;
                   });
  std::vector<KnobOption> front;
  double bestLoss = std::numeric_limits<double>::infinity();
  for (size_t i = 1; i < options.size(); ++i)
    if (options[i].loss < bestLoss - 1e-12 && options[i].timeRatio < 1) {
      front.push_back(options[i]);
      bestLoss = options[i].loss;
    }
  std::vector<KnobOption> kept{exact};
  if (keep < 2 || front.size() <= keep - 1) {
    kept.insert(kept.end(), front.begin(), front.end());
    return kept;
  }
  size_t slots = keep - 1;
  for (size_t i = 0; i < slots; ++i)
    kept.push_back(front[i * (front.size() - 1) / (slots - 1 ? slots - 1 : 1)]);
  return kept;
}

double Composer::predictTime(const std::vector<size_t> &pick) const {
  double t = 1;
  for (size_t k = 0; k < pick.size(); ++k)
    t *= options[k][pick[k]].timeRatio;
  return t;
}

double Composer::predictLoss(const std::vector<size_t> &pick) const {
  double l = 0;
  for (size_t k = 0; k < pick.size(); ++k)
    l += options[k][pick[k]].loss;
  return l * lossScale;
}

std::vector<size_t> Composer::best(double allowedLoss,
                                   const std::set<std::vector<size_t>> &exclude,
                                   size_t maxNodes) const {
  size_t n = options.size();
  // Knobs with the most to gain first, so that pruning bites early; the
  // least loss each remaining knob can add (0: its exact option).
  std::vector<size_t> order(n);
  for (size_t k = 0; k < n; ++k)
    order[k] = k;
  auto minRatio = [&](size_t k) {
    double r = 1;
    for (const KnobOption &o : options[k])
      r = std::min(r, o.timeRatio);
    return r;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return minRatio(a) < minRatio(b); });
  std::vector<double> bestRatioFrom(n + 1, 1);
  for (size_t i = n; i-- > 0;)
    bestRatioFrom[i] = bestRatioFrom[i + 1] * minRatio(order[i]);

  std::vector<size_t> pick(n, 0), found;
  double foundTime = std::numeric_limits<double>::infinity();
  size_t nodes = 0;
  std::function<void(size_t, double, double)> visit = [&](size_t i, double time,
                                                          double loss) {
    if (++nodes > maxNodes)
      return;
    // Even the fastest remaining options cannot beat what was found.
    if (time * bestRatioFrom[i] >= foundTime)
      return;
    if (i == n) {
      bool exact = std::all_of(pick.begin(), pick.end(),
                               [](size_t p) { return p == 0; });
      if (!exact && !exclude.count(pick)) {
        found = pick;
        foundTime = time;
      }
      return;
    }
    size_t k = order[i];
    for (size_t o = 0; o < options[k].size(); ++o) {
      double l = loss + options[k][o].loss * lossScale;
      if (l > allowedLoss + 1e-12)
        continue;
      pick[k] = o;
      visit(i + 1, time * options[k][o].timeRatio, l);
    }
    pick[k] = 0;
  };
  visit(0, 1, 0);
  return found;
}

} // namespace approx::tune
