//===- Encoding.h - configurations as points of the unit cube ---*- C++ -*-===//
//
// Configurations as points of [0,1]^d. Thresholds are decoded one after the
// other inside the interval left by their neighbours, so every point
// decodes to strictly ascending thresholds within bounds. Knobs no
// configuration runs (Space::reachable) get no coordinates. Internal to the
// search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_ENCODING_H
#define APPROX_TUNER_SEARCH_ENCODING_H

#include "Rng.h"
#include "approx/Tuner/Space.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace approx::tune::search {

class Encoding {
public:
  Encoding(const Space &space, bool dynamic) : space(space), dynamic(dynamic) {
    for (size_t i = 0; i < space.knobs.size(); ++i) {
      const KnobParams &k = space.knobs[i];
      if (!space.reachable(i))
        continue; // don't-care: left at its defaults
      if (!k.decisionTree) {
        choices.push_back({{k.knobVal}, space.params[k.knobVal].values});
        continue;
      }
      if (!dynamic) {
        choices.push_back(
            {k.decisions, space.params[k.decisions.front()].values});
        continue;
      }
      trees.push_back(&k);
      for (size_t j : k.decisions)
        choices.push_back({{j}, space.params[j].values});
    }
    for (const KnobParams *k : trees)
      dims += k->thresholds.size();
    dims += choices.size();
  }

  size_t dimensions() const { return dims; }

  Config decode(const Point &x) const {
    Config c = space.defaults();
    size_t g = 0;
    for (const KnobParams *k : trees) {
      std::vector<int64_t> hi = upperLimits(*k);
      for (size_t i = 0; i < k->thresholds.size(); ++i) {
        const TunableParam &p = space.params[k->thresholds[i]];
        int64_t lo = lowerLimit(*k, i, c);
        int64_t v = lo + int64_t(std::llround(x[g++] * double(hi[i] - lo)));
        c[p.name] = std::min(hi[i], std::max(lo, v));
      }
    }
    for (const Choice &ch : choices) {
      int64_t v = ch.values.empty()
                      ? space.params[ch.params.front()].current
                      : ch.values[std::min(ch.values.size() - 1,
                                           size_t(x[g] * double(ch.values.size())))];
      ++g;
      for (size_t p : ch.params)
        c[space.params[p].name] = v;
    }
    return c;
  }

  /// A point decoding to `c` (used to start from the annotation's values).
  Point encode(const Config &c) const {
    Point x;
    for (const KnobParams *k : trees) {
      std::vector<int64_t> hi = upperLimits(*k);
      for (size_t i = 0; i < k->thresholds.size(); ++i) {
        int64_t lo = lowerLimit(*k, i, c);
        int64_t v = c.at(space.params[k->thresholds[i]].name);
        x.push_back(hi[i] > lo ? double(v - lo) / double(hi[i] - lo) : 0.5);
      }
    }
    for (const Choice &ch : choices) {
      int64_t v = c.at(space.params[ch.params.front()].name);
      auto it = std::find(ch.values.begin(), ch.values.end(), v);
      size_t idx = it == ch.values.end() ? 0 : size_t(it - ch.values.begin());
      x.push_back((double(idx) + 0.5) / double(std::max<size_t>(1, ch.values.size())));
    }
    return x;
  }

  /// The interval threshold `i` of tree `k` can move in, given the other
  /// thresholds of `c`: above its lower neighbour and its bound, below its
  /// upper neighbour and its bound.
  std::pair<int64_t, int64_t> thresholdRange(const KnobParams &k, size_t i,
                                             const Config &c) const {
    int64_t lo = lowerLimit(k, i, c);
    int64_t hi = space.params[k.thresholds[i]].upper;
    if (i + 1 < k.thresholds.size())
      hi = std::min(hi, c.at(space.params[k.thresholds[i + 1]].name) - 1);
    return {lo, std::max(lo, hi)};
  }

  /// Every configuration, in a fixed order.
  void enumerate(const std::function<bool(const Config &)> &visit) const {
    Config c = space.defaults();
    std::vector<std::pair<const KnobParams *, size_t>> thresholdSlots;
    for (const KnobParams *k : trees)
      for (size_t i = 0; i < k->thresholds.size(); ++i)
        thresholdSlots.push_back({k, i});
    bool go = true;
    std::function<void(size_t)> choose = [&](size_t ci) {
      if (!go)
        return;
      if (ci == choices.size()) {
        go = visit(c);
        return;
      }
      const Choice &ch = choices[ci];
      std::vector<int64_t> values = ch.values;
      if (values.empty())
        values.push_back(space.params[ch.params.front()].current);
      for (int64_t v : values) {
        for (size_t p : ch.params)
          c[space.params[p].name] = v;
        choose(ci + 1);
      }
    };
    std::function<void(size_t)> threshold = [&](size_t si) {
      if (!go)
        return;
      if (si == thresholdSlots.size())
        return choose(0);
      auto [k, i] = thresholdSlots[si];
      std::vector<int64_t> hi = upperLimits(*k);
      const TunableParam &p = space.params[k->thresholds[i]];
      for (int64_t v = lowerLimit(*k, i, c); v <= hi[i] && go; ++v) {
        c[p.name] = v;
        threshold(si + 1);
      }
    };
    threshold(0);
  }

private:
  struct Choice {
    std::vector<size_t> params; // set together (a static tree: all decisions)
    std::vector<int64_t> values;
  };

  /// The smallest value threshold `i` of `k` can take: its lower bound, and
  /// above threshold i-1 as set in `c`.
  int64_t lowerLimit(const KnobParams &k, size_t i, const Config &c) const {
    int64_t lower = space.params[k.thresholds[i]].lower;
    if (i == 0)
      return lower;
    return std::max(lower, c.at(space.params[k.thresholds[i - 1]].name) + 1);
  }

  /// The largest value each threshold of `k` can take and leave room for
  /// the ones above it.
  std::vector<int64_t> upperLimits(const KnobParams &k) const {
    std::vector<int64_t> hi(k.thresholds.size());
    for (size_t i = hi.size(); i-- > 0;) {
      hi[i] = space.params[k.thresholds[i]].upper;
      if (i + 1 < hi.size())
        hi[i] = std::min(hi[i], hi[i + 1] - 1);
    }
    return hi;
  }

  const Space &space;
  bool dynamic;
  std::vector<const KnobParams *> trees;
  std::vector<Choice> choices;
  size_t dims = 0;
};

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_ENCODING_H
