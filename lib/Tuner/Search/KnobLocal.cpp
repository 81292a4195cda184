//===- KnobLocal.cpp - local search in the knobs' terms --------------------===//
#include "Technique.h"

#include <algorithm>
#include <cmath>

namespace approx::tune::search {
namespace {

/// Local search in the knobs' own terms, around the best point (or a
/// frontier point): one knob at a time (sometimes two, trading QoS between
/// them), a decision or knob value one step more or less aggressive, or a
/// threshold moved, so that a point stays near the feasible region it
/// starts from. The unit-cube techniques above move every parameter and
/// mostly land far from it when the feasible region is narrow.
class KnobLocal : public Technique {
public:
  KnobLocal(const Space &space, const Encoding &encoding, bool dynamic,
            const ValueOrder &order)
      : space(space), encoding(encoding), dynamic(dynamic), order(order) {
    for (size_t k = 0; k < space.knobs.size(); ++k)
      if (space.reachable(k) && tunable(space.knobs[k]))
        knobs.push_back(k);
  }
  const char *name() const override { return "knob-local"; }

  bool propose(Rng &rng, const Archive &archive, Point &x,
               long &tag) override {
    if (archive.best < 0 || knobs.empty())
      return false;
    tag = 0;
    size_t parent = size_t(archive.best);
    if (!archive.frontier.empty() && rng.uniform() < 0.3)
      parent = archive.frontier[rng.below(archive.frontier.size())];
    Config c = encoding.decode(archive.entries[parent].x);
    size_t first = knobs[rng.below(knobs.size())];
    move(rng, first, c);
    if (knobs.size() > 1 && rng.uniform() < 0.25) {
      size_t second;
      do
        second = knobs[rng.below(knobs.size())];
      while (second == first);
      move(rng, second, c);
    }
    x = encoding.encode(c);
    return true;
  }
  void observe(long, const Point &, double) override {}

private:
  bool tunable(const KnobParams &k) const {
    std::vector<size_t> ps = space.selectors(k);
    return (!ps.empty() && space.params[ps.front()].values.size() > 1) ||
           (dynamic && k.decisionTree && !k.thresholds.empty());
  }

  /// `v` one step along the knob's value order (up or down at random; the
  /// other way at an end), or a random value now and then.
  int64_t step(Rng &rng, size_t k, int64_t v) const {
    const std::vector<int64_t> &values = order[k];
    if (values.size() < 2)
      return v;
    if (rng.uniform() < 0.15)
      return values[rng.below(values.size())];
    auto it = std::find(values.begin(), values.end(), v);
    if (it == values.end())
      return values.front();
    size_t i = size_t(it - values.begin());
    bool up = rng.uniform() < 0.5;
    if (i == 0)
      up = true;
    if (i + 1 == values.size())
      up = false;
    return values[up ? i + 1 : i - 1];
  }

  void move(Rng &rng, size_t knob, Config &c) const {
    const KnobParams &k = space.knobs[knob];
    auto set = [&](size_t p, int64_t v) { c[space.params[p].name] = v; };
    auto get = [&](size_t p) { return c.at(space.params[p].name); };
    if (!k.decisionTree) {
      set(k.knobVal, step(rng, knob, get(k.knobVal)));
      return;
    }
    if (!dynamic) { // a static tree: every decision the same
      int64_t v = step(rng, knob, get(k.decisions.front()));
      for (size_t p : k.decisions)
        set(p, v);
      return;
    }
    double r = rng.uniform();
    bool decision = k.thresholds.empty() || r < 0.45 || r >= 0.8;
    bool threshold = !k.thresholds.empty() && r >= 0.45;
    if (decision) {
      size_t p = k.decisions[rng.below(k.decisions.size())];
      if (space.params[p].values.size() > 1)
        set(p, step(rng, knob, get(p)));
    }
    if (threshold) {
      size_t i = rng.below(k.thresholds.size());
      const TunableParam &p = space.params[k.thresholds[i]];
      auto [lo, hi] = encoding.thresholdRange(k, i, c);
      // Anywhere in its interval, a step of a tenth of its range, or a few
      // units (program states can sit close together).
      int64_t v;
      double r2 = rng.uniform();
      if (r2 < 0.4)
        v = lo + int64_t(rng.below(size_t(hi - lo + 1)));
      else if (r2 < 0.7)
        v = c.at(p.name) +
            int64_t(std::llround(rng.normal() * 0.1 * double(p.upper - p.lower)));
      else
        v = c.at(p.name) + (rng.uniform() < 0.5 ? -1 : 1) *
                               int64_t(1 + rng.below(4));
      c[p.name] = std::clamp(v, lo, hi);
    }
  }

  const Space &space;
  const Encoding &encoding;
  bool dynamic;
  const ValueOrder &order;
  std::vector<size_t> knobs; // those with something to move
};

} // namespace

std::unique_ptr<Technique> makeKnobLocal(const Space &space, const Encoding &encoding,
                                         bool dynamic, const ValueOrder &order) {
  return std::make_unique<KnobLocal>(space, encoding, dynamic, order);
}

} // namespace approx::tune::search
