//===- Search.cpp - searching a configuration space -----------------------===//
#include "approx/Tuner/Search.h"
#include "Compose.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <thread>

namespace approx::tune {

Config exactConfig(const Space &space) {
  Config c;
  for (const TunableParam &p : space.params)
    c[p.name] = p.kind == ParamKind::Threshold ? p.current : 0;
  return c;
}

/// The frontier among `candidates` (indices into `evals`, ascending).
static std::vector<size_t> frontierOf(const std::vector<Evaluation> &evals,
                                      std::vector<size_t> candidates) {
  std::vector<size_t> ok;
  for (size_t i : candidates)
    if (evals[i].result.ok())
      ok.push_back(i);
  std::stable_sort(ok.begin(), ok.end(), [&](size_t a, size_t b) {
    const Measurement &x = evals[a].result, &y = evals[b].result;
    return x.time != y.time ? x.time < y.time : x.qos > y.qos;
  });
  std::vector<size_t> front;
  double bestQos = -1;
  for (size_t i : ok)
    if (evals[i].result.qos > bestQos) {
      front.push_back(i);
      bestQos = evals[i].result.qos;
    }
  return front;
}

std::vector<size_t> paretoFrontier(const std::vector<Evaluation> &evals) {
  std::vector<size_t> all(evals.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  return frontierOf(evals, std::move(all));
}

namespace {

//===----------------------------------------------------------------------===//
// Randomness: one seeded generator, distributions written out so that a
// seed means the same run with any standard library.
//===----------------------------------------------------------------------===//

struct Rng {
  std::mt19937_64 engine;
  explicit Rng(uint64_t seed) : engine(seed) {}
  double uniform() { return double(engine() >> 11) * 0x1.0p-53; }
  size_t below(size_t n) { return size_t(uniform() * double(n)) % n; }
  double normal() {
    double u = std::max(uniform(), 1e-300), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
  }
};

using Point = std::vector<double>; // a point of the unit cube

double clampUnit(double v) {
  if (v < 0)
    v = -v; // reflect
  if (v > 1)
    v = 2 - v;
  return std::min(1.0, std::max(0.0, v));
}

//===----------------------------------------------------------------------===//
// Encoding: configurations as points of [0,1]^d. Thresholds are decoded one
// after the other inside the interval left by their neighbours, so every
// point decodes to strictly ascending thresholds within bounds.
//===----------------------------------------------------------------------===//

class Encoding {
public:
  Encoding(const Space &space, bool dynamic) : space(space), dynamic(dynamic) {
    for (const KnobParams &k : space.knobs) {
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

//===----------------------------------------------------------------------===//
// The archive every technique sees: all points measured so far.
//===----------------------------------------------------------------------===//

struct Archive {
  struct Entry {
    Point x;
    double score;
  };
  std::vector<Entry> entries;
  std::vector<size_t> frontier; // entries on the time/QoS frontier
  long best = -1;               // lowest score

  void add(const Point &x, double score) {
    entries.push_back({x, score});
    if (best < 0 || score < entries[size_t(best)].score)
      best = long(entries.size() - 1);
  }
};

//===----------------------------------------------------------------------===//
// Techniques. Each proposes points and is told their scores (lower is
// better); `propose` returns false while it waits for a result.
//===----------------------------------------------------------------------===//

class Technique {
public:
  virtual ~Technique() = default;
  virtual const char *name() const = 0;
  virtual bool propose(Rng &rng, const Archive &archive, Point &x,
                       long &tag) = 0;
  virtual void observe(long tag, const Point &x, double score) = 0;
};

Point randomPoint(Rng &rng, size_t d) {
  Point x(d);
  for (double &v : x)
    v = rng.uniform();
  return x;
}

class RandomSearch : public Technique {
public:
  explicit RandomSearch(size_t d) : d(d) {}
  const char *name() const override { return "random"; }
  bool propose(Rng &rng, const Archive &, Point &x, long &tag) override {
    x = randomPoint(rng, d);
    tag = 0;
    return true;
  }
  void observe(long, const Point &, double) override {}

private:
  size_t d;
};

/// Mutates the best point or a random frontier point (so the whole frontier
/// gets refined, not just the constrained optimum).
class GreedyMutation : public Technique {
public:
  explicit GreedyMutation(size_t d) : d(d) {}
  const char *name() const override { return "greedy-mutation"; }
  bool propose(Rng &rng, const Archive &archive, Point &x,
               long &tag) override {
    tag = 0;
    if (archive.best < 0) {
      x = randomPoint(rng, d);
      return true;
    }
    size_t parent = size_t(archive.best);
    if (!archive.frontier.empty() && rng.uniform() < 0.5)
      parent = archive.frontier[rng.below(archive.frontier.size())];
    x = archive.entries[parent].x;
    size_t forced = rng.below(d);
    for (size_t i = 0; i < d; ++i) {
      if (i != forced && rng.uniform() >= 1.0 / double(d))
        continue;
      x[i] = rng.uniform() < 0.5 ? clampUnit(x[i] + 0.15 * rng.normal())
                                 : rng.uniform();
    }
    return true;
  }
  void observe(long, const Point &, double) override {}

private:
  size_t d;
};

/// Differential evolution, DE/rand/1/bin (F = 0.5, CR = 0.9).
class DifferentialEvolution : public Technique {
public:
  explicit DifferentialEvolution(size_t d)
      : d(d), pop(std::clamp<size_t>(2 * d, 8, 20)) {}
  const char *name() const override { return "differential-evolution"; }

  bool propose(Rng &rng, const Archive &, Point &x, long &tag) override {
    for (size_t i = 0; i < pop.size(); ++i)
      if (!pop[i].ready && !pop[i].pending) {
        pop[i].pending = true;
        x = randomPoint(rng, d);
        tag = long(i);
        return true;
      }
    std::vector<size_t> ready;
    for (size_t i = 0; i < pop.size(); ++i)
      if (pop[i].ready)
        ready.push_back(i);
    if (ready.size() < 4)
      return false;
    for (size_t tries = 0; tries < pop.size(); ++tries) {
      size_t i = next++ % pop.size();
      if (!pop[i].ready || pop[i].pending)
        continue;
      size_t r[3];
      for (size_t k = 0; k < 3; ++k) {
        do
          r[k] = ready[rng.below(ready.size())];
        while (r[k] == i || (k > 0 && r[k] == r[0]) || (k > 1 && r[k] == r[1]));
      }
      size_t jrand = rng.below(d);
      x = pop[i].x;
      for (size_t j = 0; j < d; ++j)
        if (j == jrand || rng.uniform() < 0.9)
          x[j] = clampUnit(pop[r[0]].x[j] +
                           0.5 * (pop[r[1]].x[j] - pop[r[2]].x[j]));
      pop[i].pending = true;
      tag = long(i);
      return true;
    }
    return false;
  }

  void observe(long tag, const Point &x, double score) override {
    Member &m = pop[size_t(tag)];
    m.pending = false;
    if (!m.ready || score <= m.score) {
      m.x = x;
      m.score = score;
      m.ready = true;
    }
  }

private:
  struct Member {
    Point x;
    double score = 0;
    bool ready = false, pending = false;
  };
  size_t d;
  std::vector<Member> pop;
  size_t next = 0;
};

/// Nelder-Mead on the unit cube, one point at a time, restarted around a
/// random archive point when the simplex collapses.
class NelderMead : public Technique {
public:
  explicit NelderMead(size_t d) : d(d) {}
  const char *name() const override { return "nelder-mead"; }

  bool propose(Rng &rng, const Archive &archive, Point &x,
               long &tag) override {
    if (pending)
      return false;
    tag = 0;
    if (state == State::Start)
      restart(rng, archive);
    switch (state) {
    case State::Start:
    case State::Init:
      x = simplex[initIndex].x;
      break;
    case State::Reflect:
      centroidAndWorst();
      x = along(-1.0); // reflection: c + (c - worst)
      reflected = x;
      break;
    case State::Expand:
      x = along(-2.0);
      break;
    case State::Contract:
      x = along(reflectScore < simplex.back().score ? -0.5 : 0.5);
      break;
    case State::Shrink:
      x = simplex[shrinkIndex].x;
      break;
    }
    pending = true;
    return true;
  }

  void observe(long, const Point &x, double score) override {
    pending = false;
    switch (state) {
    case State::Start:
    case State::Init:
      simplex[initIndex].score = score;
      if (++initIndex == simplex.size())
        beginIteration();
      return;
    case State::Reflect:
      reflectScore = score;
      if (score < simplex.front().score) {
        state = State::Expand;
      } else if (score < simplex[simplex.size() - 2].score) {
        replaceWorst(x, score);
      } else {
        state = State::Contract;
      }
      return;
    case State::Expand:
      if (score < reflectScore)
        replaceWorst(x, score);
      else
        replaceWorst(reflected, reflectScore);
      return;
    case State::Contract:
      if (score < std::min(reflectScore, simplex.back().score)) {
        replaceWorst(x, score);
        return;
      }
      for (size_t i = 1; i < simplex.size(); ++i)
        for (size_t j = 0; j < d; ++j)
          simplex[i].x[j] = simplex[0].x[j] +
                            0.5 * (simplex[i].x[j] - simplex[0].x[j]);
      state = State::Shrink;
      shrinkIndex = 1;
      return;
    case State::Shrink:
      simplex[shrinkIndex].score = score;
      if (++shrinkIndex == simplex.size())
        beginIteration();
      return;
    }
  }

private:
  enum class State { Start, Init, Reflect, Expand, Contract, Shrink };
  struct Vertex {
    Point x;
    double score = 0;
  };

  void restart(Rng &rng, const Archive &archive) {
    Point base = archive.entries.empty()
                     ? randomPoint(rng, d)
                     : archive.entries[rng.below(archive.entries.size())].x;
    simplex.assign(1, {base, 0});
    for (size_t i = 0; i < d; ++i) {
      Point v = base;
      v[i] = v[i] + 0.25 <= 1 ? v[i] + 0.25 : v[i] - 0.25;
      simplex.push_back({v, 0});
    }
    initIndex = 0;
    state = State::Init;
  }

  void beginIteration() {
    std::stable_sort(simplex.begin(), simplex.end(),
                     [](const Vertex &a, const Vertex &b) {
                       return a.score < b.score;
                     });
    double size = 0;
    for (size_t i = 1; i < simplex.size(); ++i)
      for (size_t j = 0; j < d; ++j)
        size = std::max(size, std::abs(simplex[i].x[j] - simplex[0].x[j]));
    state = size < 1e-3 ? State::Start : State::Reflect;
  }

  void centroidAndWorst() {
    centroid.assign(d, 0);
    for (size_t i = 0; i + 1 < simplex.size(); ++i)
      for (size_t j = 0; j < d; ++j)
        centroid[j] += simplex[i].x[j] / double(simplex.size() - 1);
  }

  /// centroid + t * (worst - centroid), clamped to the cube.
  Point along(double t) const {
    Point x(d);
    for (size_t j = 0; j < d; ++j)
      x[j] = std::min(1.0, std::max(0.0, centroid[j] +
                                             t * (simplex.back().x[j] -
                                                  centroid[j])));
    return x;
  }

  void replaceWorst(const Point &x, double score) {
    simplex.back() = {x, score};
    beginIteration();
  }

  size_t d;
  State state = State::Start;
  std::vector<Vertex> simplex;
  Point centroid, reflected;
  double reflectScore = 0;
  size_t initIndex = 0, shrinkIndex = 0;
  bool pending = false;
};

/// Each knob's values from exact to most aggressive: 0 first, then the
/// values measured alone in ascending speed-up (the knob profile), then
/// values not measured, in their own order.
using ValueOrder = std::vector<std::vector<int64_t>>;

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
      if (tunable(space.knobs[k]))
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
    const std::vector<size_t> &ps =
        k.decisionTree ? k.decisions : std::vector<size_t>{k.knobVal};
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

/// Chooses the technique for the next point by upper confidence bound over
/// a sliding window of credits (1 when a point improved the best score or
/// joined the feasible frontier), as OpenTuner's AUC bandit does.
class Bandit {
public:
  explicit Bandit(size_t arms) : arms(arms) {}

  /// Arms in order of preference.
  std::vector<size_t> ranking() const {
    std::vector<double> uses(arms, 0), credit(arms, 0);
    for (auto [arm, c] : window) {
      uses[arm] += 1;
      credit[arm] += c;
    }
    double total = double(window.size());
    std::vector<std::pair<double, size_t>> scored;
    for (size_t a = 0; a < arms; ++a) {
      double value = uses[a] == 0
                         ? std::numeric_limits<double>::infinity()
                         : credit[a] / uses[a] +
                               0.5 * std::sqrt(2 * std::log(total) / uses[a]);
      scored.push_back({-value, a});
    }
    std::stable_sort(scored.begin(), scored.end());
    std::vector<size_t> order;
    for (auto [v, a] : scored)
      order.push_back(a);
    return order;
  }

  void reward(size_t arm, double credit) {
    window.push_back({arm, credit});
    if (window.size() > 500)
      window.erase(window.begin());
  }

private:
  size_t arms;
  std::vector<std::pair<size_t, double>> window;
};

std::string key(const Config &c) {
  std::string k;
  for (const auto &[name, value] : c)
    k += name + "=" + std::to_string(value) + ";";
  return k;
}

/// A candidate of the current batch and who asked for it.
struct Pending {
  Config config;
  std::string technique;
  struct Asker {
    long technique; // -1: not a technique (baseline, default, exhaustive)
    long tag;
    Point x;
  };
  std::vector<Asker> askers;
};

class Search {
public:
  Search(const Space &space, const EvaluateFn &evaluate,
         const TuneOptions &options)
      : space(space), evaluate(evaluate), options(options),
        encoding(space, options.dynamic), rng(options.seed),
        bandit(5), start(std::chrono::steady_clock::now()) {
    size_t d = std::max<size_t>(1, encoding.dimensions());
    for (const KnobParams &k : space.knobs) {
      std::vector<int64_t> values = knobValues(k);
      values.insert(values.begin(), 0);
      valueOrder.push_back(std::move(values));
    }
    techniques.push_back(std::make_unique<DifferentialEvolution>(d));
    techniques.push_back(std::make_unique<NelderMead>(d));
    techniques.push_back(std::make_unique<GreedyMutation>(d));
    techniques.push_back(std::make_unique<RandomSearch>(d));
    techniques.push_back(std::make_unique<KnobLocal>(space, encoding,
                                                     options.dynamic, valueOrder));
    for (const Evaluation &e : options.prior)
      prior[key(e.config)].push_back(e);
  }

  TuneResult run() {
    // The baseline: the exact configuration.
    Pending base{exactConfig(space), "exact", {}};
    measure({base}, /*counts=*/false);
    if (!result.baselineOk()) {
      result.stopReason = "the exact configuration failed";
      return finish();
    }
    baseTime = std::max(result.evaluations[0].result.time, 1e-12);

    measureStart();
    double size = space.size(options.dynamic);
    result.exhaustive = encoding.dimensions() == 0 ||
                        (std::isfinite(size) && size <= double(options.maxEvals));
    if (result.exhaustive)
      runExhaustive();
    else
      runEnsemble();
    return finish();
  }

private:
  bool budgetLeft() {
    if (options.stop && options.stop()) {
      result.stopReason = "stopped";
      return false;
    }
    if (counted >= options.maxEvals) {
      result.stopReason = "evaluation budget reached";
      return false;
    }
    if (options.timeBudget > 0 && elapsed() >= options.timeBudget) {
      result.stopReason = "time budget reached";
      return false;
    }
    return true;
  }

  /// The search's clock: this session's seconds plus the clock of the last
  /// evaluation replayed from an earlier session.
  double elapsed() const { return sessionSeconds() + clockOffset; }
  double sessionSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

  double score(const Measurement &m) const {
    // A screened candidate is infeasible by its screen-set QoS; its time is
    // the screen set's, not comparable with the baseline's.
    if (m.status == EvalStatus::Screened)
      return 1000 + 1000 * std::max(0.0, options.qosMin - m.qos) + 1;
    if (!m.ok())
      return 1e9;
    double ratio = m.time / baseTime;
    if (m.qos >= options.qosMin)
      return ratio;
    return 1000 + 1000 * (options.qosMin - m.qos) + ratio;
  }

  /// The given starting configurations, in batches of `workers`.
  void measureStart() {
    std::vector<Config> configs;
    for (const Config &given : options.start)
      configs.push_back(space.complete(given)); // as decoded points are
    measureAll(configs, "start");
  }

  /// A configuration to measure that no technique asked for (its point is
  /// still recorded in the archive for the techniques to build on).
  Pending given(const Config &c, const char *technique) const {
    Pending p{c, technique, {}};
    p.askers.push_back({-1, 0, encoding.encode(c)});
    return p;
  }

  /// Measures `configs` not measured before, in order and in batches of
  /// `workers`, while the budget lasts.
  void measureAll(const std::vector<Config> &configs, const char *technique) {
    std::vector<Pending> batch;
    std::set<std::string> inBatch;
    auto flush = [&] {
      if (!batch.empty())
        measure(batch, true);
      batch.clear();
      inBatch.clear();
    };
    for (const Config &c : configs) {
      std::string k = key(c);
      if (seen.count(k) || inBatch.count(k))
        continue;
      if (!budgetLeft())
        break;
      batch.push_back(given(c, technique));
      inBatch.insert(k);
      if (batch.size() >= std::max(1u, options.workers) ||
          counted + batch.size() >= options.maxEvals)
        flush();
    }
    flush();
  }

  /// The values a knob can take other than 0 (a tree's decisions share
  /// their values).
  std::vector<int64_t> knobValues(const KnobParams &k) const {
    size_t p = k.decisionTree ? (k.decisions.empty() ? SIZE_MAX : k.decisions.front())
                              : k.knobVal;
    std::vector<int64_t> values;
    if (p != SIZE_MAX)
      for (int64_t v : space.params[p].values)
        if (v != 0)
          values.push_back(v);
    return values;
  }

  /// The settings of knob `k` at value `v` (every decision of a tree).
  std::map<std::string, int64_t> knobAt(const KnobParams &k, int64_t v) const {
    std::map<std::string, int64_t> s;
    if (!k.decisionTree)
      s[space.params[k.knobVal].name] = v;
    for (size_t p : k.decisions)
      s[space.params[p].name] = v;
    return s;
  }

  static Config merged(Config c, const std::map<std::string, int64_t> &s) {
    for (const auto &[name, value] : s)
      c[name] = value;
    return c;
  }

  /// (time ratio, loss) of a measured configuration, if it succeeded.
  std::optional<std::pair<double, double>> effect(const Config &c) const {
    auto it = seen.find(key(c));
    if (it == seen.end() || !result.evaluations[it->second].result.ok())
      return std::nullopt;
    const Measurement &m = result.evaluations[it->second].result;
    return std::make_pair(m.time / baseTime,
                          std::max(0.0, result.evaluations[0].result.qos - m.qos));
  }

  /// Each knob alone at each of its values, the others exact. Orders each
  /// knob's values by the speed-up measured, and gives the composer its
  /// options. (Planned without regard to the budget, as every phase: a
  /// run's evaluations are a prefix of the same sequence whatever its
  /// budget, so a run extended or resumed is the run never stopped.)
  void profileKnobs() {
    std::vector<std::vector<int64_t>> probe;
    for (const KnobParams &k : space.knobs)
      probe.push_back(knobValues(k));
    Config exact = exactConfig(space);
    std::vector<Config> configs;
    for (size_t k = 0; k < space.knobs.size(); ++k)
      for (int64_t v : probe[k])
        configs.push_back(merged(exact, knobAt(space.knobs[k], v)));
    measureAll(configs, "knob-profile");

    composer.options.assign(space.knobs.size(), {KnobOption{}});
    staticOptions = composer.options;
    staticEffect.assign(space.knobs.size(), {});
    for (size_t k = 0; k < space.knobs.size(); ++k) {
      std::vector<KnobOption> measured;
      std::vector<int64_t> values;
      for (int64_t v : probe[k]) {
        auto e = effect(merged(exact, knobAt(space.knobs[k], v)));
        if (!e)
          continue; // failed, or the budget ran out
        measured.push_back({knobAt(space.knobs[k], v), e->first, e->second});
        values.push_back(v);
        staticEffect[k][v] = *e;
      }
      // Exact first, then ascending speed-up, then values not measured.
      std::vector<size_t> idx(values.size());
      for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        return measured[a].timeRatio > measured[b].timeRatio;
      });
      std::vector<int64_t> order{0};
      for (size_t i : idx)
        order.push_back(values[i]);
      for (int64_t v : knobValues(space.knobs[k]))
        if (std::find(order.begin(), order.end(), v) == order.end())
          order.push_back(v);
      valueOrder[k] = order;
      measured.insert(measured.begin(), KnobOption{});
      staticOptions[k] = paretoOptions(std::move(measured), kMaxOptions);
      composer.options[k] = staticOptions[k];
    }
  }

  /// The thresholds and decisions of tree `k` that give the states below
  /// `cuts[0]` decision `groups[0]`, those in [cuts[i-1], cuts[i]) decision
  /// `groups[i]`, those from the last cut on the last decision: the cuts
  /// are thresholds, and the thresholds left over sit where they split no
  /// group with two decisions (packed at the top or the bottom of the
  /// range, or right after a cut). None when the bounds allow no such
  /// placement.
  std::optional<std::map<std::string, int64_t>>
  treeSettings(const KnobParams &k, const std::vector<int64_t> &cuts,
               const std::vector<int64_t> &groups) const {
    size_t n = k.thresholds.size(), fill = n - std::min(n, cuts.size());
    if (cuts.size() > n)
      return std::nullopt;
    const TunableParam &first = space.params[k.thresholds.front()];
    const TunableParam &last = space.params[k.thresholds.back()];
    std::vector<std::vector<int64_t>> fillers;
    std::vector<int64_t> top, bottom;
    for (size_t i = 0; i < fill; ++i) {
      top.push_back(last.upper - int64_t(fill - 1 - i));
      bottom.push_back(first.lower + int64_t(i));
    }
    fillers.push_back(top);
    fillers.push_back(bottom);
    for (int64_t c : cuts) {
      std::vector<int64_t> after;
      for (size_t i = 0; i < fill; ++i)
        after.push_back(c + 1 + int64_t(i));
      fillers.push_back(after);
    }
    for (const std::vector<int64_t> &f : fillers) {
      std::vector<int64_t> ts = cuts;
      ts.insert(ts.end(), f.begin(), f.end());
      std::sort(ts.begin(), ts.end());
      bool ok = std::adjacent_find(ts.begin(), ts.end()) == ts.end();
      for (size_t i = 0; ok && i < n; ++i)
        ok = ts[i] >= space.params[k.thresholds[i]].lower &&
             ts[i] <= space.params[k.thresholds[i]].upper;
      if (!ok)
        continue;
      std::map<std::string, int64_t> s;
      for (size_t i = 0; i < n; ++i)
        s[space.params[k.thresholds[i]].name] = ts[i];
      for (size_t j = 0; j <= n; ++j) {
        // Group j holds the states from threshold j-1 on.
        size_t g = j == 0 ? 0
                          : size_t(std::upper_bound(cuts.begin(), cuts.end(),
                                                    ts[j - 1]) -
                                   cuts.begin());
        s[space.params[k.decisions[j]].name] = groups[g];
      }
      return s;
    }
    return std::nullopt;
  }

  /// The state profile of each decision tree (dynamic search), at a level
  /// of detail: the tree with its states below a cut at its most aggressive
  /// value and the others exact, for 2^(level+1) - 1 cuts evenly over the
  /// thresholds' range (each level adds the midpoints of the one before).
  /// Differences of these measurements estimate what each range of states
  /// contributes, other values scaled by their own effect, so trees that
  /// approximate where it costs little can be predicted and composed; each
  /// tree's predicted frontier becomes the composer's options for its knob.
  /// False when the level adds nothing.
  bool profileStates(int level) {
    if (!options.dynamic || composer.options.empty())
      return false;
    Config exact = exactConfig(space);
    struct Plan {
      std::vector<int64_t> cuts;
      std::optional<int64_t> value; // the value split, if any
    };
    std::vector<Plan> plans(space.knobs.size());
    int64_t cutCount = (int64_t(1) << (level + 1)) - 1;
    std::vector<Config> configs;
    bool added = false;
    for (size_t k = 0; k < space.knobs.size(); ++k) {
      const KnobParams &knob = space.knobs[k];
      if (!knob.decisionTree || knob.thresholds.empty())
        continue;
      // The value to split: the most aggressive one (too lossy for every
      // state, it may pay on the states that tolerate it).
      std::optional<std::pair<double, int64_t>> fastest;
      for (const auto &[v, e] : staticEffect[k])
        if (e.first < 1 && (!fastest || e.first < fastest->first))
          fastest = std::make_pair(e.first, v);
      if (!fastest)
        continue;
      Plan &plan = plans[k];
      plan.value = fastest->second;
      int64_t lo = space.params[knob.thresholds.front()].lower;
      int64_t hi = space.params[knob.thresholds.back()].upper;
      for (int64_t i = 1; i <= cutCount; ++i) {
        int64_t c = lo + (hi - lo) * i / (cutCount + 1);
        if (c > lo && (plan.cuts.empty() || c > plan.cuts.back()))
          plan.cuts.push_back(c);
      }
      for (int64_t c : plan.cuts)
        if (auto st = treeSettings(knob, {c}, {*plan.value, 0})) {
          Config cfg = merged(exact, *st);
          added |= !seen.count(key(cfg));
          configs.push_back(cfg);
        }
    }
    if (!added)
      return false;
    measureAll(configs, "state-profile");

    for (size_t k = 0; k < space.knobs.size(); ++k) {
      const Plan &plan = plans[k];
      const KnobParams &knob = space.knobs[k];
      if (!plan.value)
        continue;
      // Cumulative effect F(c) of approximating the states below c at the
      // value split: (saving, loss), from 0 below every state to the knob
      // alone at that value.
      int64_t split = *plan.value;
      size_t G = plan.cuts.size() + 1;
      std::vector<std::pair<double, double>> F{{0.0, 0.0}};
      for (int64_t c : plan.cuts) {
        auto s = treeSettings(knob, {c}, {split, 0});
        auto e = s ? effect(merged(exact, *s)) : std::nullopt;
        if (!e)
          break;
        F.push_back({1 - e->first, e->second});
      }
      auto all = staticEffect[k].find(split);
      if (F.size() != G || all == staticEffect[k].end())
        continue; // a cut failed or could not be placed
      const std::pair<double, double> &ref = all->second;
      F.push_back({1 - ref.first, ref.second});
      std::map<int64_t, std::vector<std::pair<double, double>>> interval;
      std::vector<std::pair<double, double>> &measuredPer = interval[split];
      measuredPer.resize(G);
      for (size_t g = 0; g < G; ++g)
        measuredPer[g] = {F[g + 1].first - F[g].first,
                          F[g + 1].second - F[g].second};
      // The other values, by proportion: a value's saving and loss spread
      // over the states as the measured value's do (which states run
      // often, and which tolerate approximation, hardly depend on the
      // value), scaled to the value's own effect on every state.
      for (const auto &[u, e] : staticEffect[k]) {
        if (u == split || e.first >= 1)
          continue;
        double sScale = (1 - ref.first) > 1e-12 ? (1 - e.first) / (1 - ref.first) : 0;
        double lScale = ref.second > 1e-12 ? e.second / ref.second : 0;
        std::vector<std::pair<double, double>> per(G);
        for (size_t g = 0; g < G; ++g)
          per[g] = {measuredPer[g].first * sScale,
                    ref.second > 1e-12 ? measuredPer[g].second * lScale
                                       : e.second / double(G)};
        interval[u] = per;
      }
      // Every tree the thresholds can express on this grid: up to n of the
      // cuts, a value (or exact) per segment, neighbours different.
      std::vector<int64_t> choices{0};
      for (const auto &[v, per] : interval)
        choices.push_back(v);
      std::vector<KnobOption> candidates = staticOptions[k];
      size_t n = std::min(knob.thresholds.size(), G - 1);
      std::vector<size_t> at; // indices of the chosen cuts
      std::function<void(size_t)> chooseCuts = [&](size_t from) {
        if (!at.empty()) {
          // Segments: [0, at[0]], (at[0], at[1]], ... in interval indices.
          size_t segments = at.size() + 1;
          std::vector<size_t> digit(segments, 0);
          while (true) {
            bool distinct = true;
            for (size_t i = 1; i < segments; ++i)
              distinct &= digit[i] != digit[i - 1];
            if (distinct) {
              std::vector<int64_t> cuts, groups;
              double saving = 0, loss = 0;
              for (size_t seg = 0; seg < segments; ++seg) {
                groups.push_back(choices[digit[seg]]);
                size_t begin = seg == 0 ? 0 : at[seg - 1] + 1;
                size_t end = seg == at.size() ? G : at[seg] + 1;
                if (seg > 0)
                  cuts.push_back(plan.cuts[at[seg - 1]]);
                if (int64_t v = choices[digit[seg]])
                  for (size_t g = begin; g < end; ++g) {
                    saving += interval[v][g].first;
                    loss += interval[v][g].second;
                  }
              }
              if (auto st = treeSettings(knob, cuts, groups))
                candidates.push_back({*st, std::max(0.01, 1 - saving),
                                      std::max(0.0, loss)});
            }
            size_t i = 0;
            while (i < segments && ++digit[i] == choices.size())
              digit[i++] = 0;
            if (i == segments)
              break;
          }
        }
        if (at.size() == n)
          return;
        for (size_t c = from; c + 1 < G; ++c) {
          at.push_back(c);
          chooseCuts(c + 1);
          at.pop_back();
        }
      };
      chooseCuts(0);
      composer.options[k] = paretoOptions(std::move(candidates), kMaxOptions);
    }
    return true;
  }

  /// Joint configurations the knob profiles predict fastest within the
  /// bound (Compose.h), measured a batch (`workers`) at a time; each
  /// measurement corrects the model's loss scale (knobs whose losses
  /// amplify each other).
  void composeKnobs() {
    if (composer.options.empty())
      return;
    const Measurement &base = result.evaluations[0].result;
    double allowed = base.qos - options.qosMin;
    if (allowed <= 0)
      return;
    Config exact = exactConfig(space);
    std::set<std::vector<size_t>> exclude;
    size_t measured = 0, rounds = space.knobs.size() + 3;
    size_t width = std::max(1u, options.workers);
    while (measured < rounds && budgetLeft()) {
      // A batch of the picks predicted fastest (as many as run at once),
      // then the loss scale learnt from each, in order.
      std::vector<std::vector<size_t>> picks;
      std::vector<Pending> batch;
      std::set<std::string> inBatch;
      for (size_t tries = 0; batch.size() < width && tries < 1000 &&
                             counted + batch.size() < options.maxEvals;
           ++tries) {
        std::vector<size_t> pick = composer.best(allowed, exclude);
        if (pick.empty())
          break;
        exclude.insert(pick);
        Config c = exact;
        for (size_t k = 0; k < pick.size(); ++k)
          c = merged(c, composer.options[k][pick[k]].settings);
        std::string k = key(c);
        if (seen.count(k) || inBatch.count(k))
          continue; // e.g. one knob alone: measured by a profile
        inBatch.insert(k);
        batch.push_back(given(c, "compose"));
        picks.push_back(pick);
      }
      if (batch.empty())
        return;
      measure(batch, true);
      measured += batch.size();
      for (size_t i = 0; i < batch.size(); ++i) {
        const Measurement &m =
            result.evaluations[result.evaluations.size() - batch.size() + i].result;
        double predicted = composer.predictLoss(picks[i]) / composer.lossScale;
        if (!m.ok() || predicted <= 1e-12)
          continue;
        double observed = std::clamp(
            std::max(0.0, base.qos - m.qos) / predicted, 0.25, 10.0);
        composer.lossScale = m.qos >= options.qosMin
                                 ? observed
                                 : std::max(observed, composer.lossScale * 1.05);
      }
    }
  }

  /// Every configuration once. Under a time budget the order is shuffled
  /// (seeded), so a budget that runs out leaves a uniform sample of the
  /// space rather than its first corner in enumeration order.
  void runExhaustive() {
    std::vector<Config> all;
    enumerateSpace(space, options.dynamic, [&](const Config &c) {
      if (!seen.count(key(c)))
        all.push_back(c);
      return true;
    });
    if (options.timeBudget > 0)
      for (size_t i = all.size(); i > 1; --i)
        std::swap(all[i - 1], all[rng.below(i)]);
    size_t w = std::max<size_t>(1, options.workers);
    for (size_t begin = 0; begin < all.size(); begin += w) {
      if (!budgetLeft())
        return; // it says why
      std::vector<Pending> batch;
      for (size_t i = begin; i < std::min(all.size(), begin + w); ++i)
        batch.push_back({all[i], "exhaustive", {}});
      measure(batch, true);
    }
    result.stopReason = "space enumerated";
  }

  void runEnsemble() {
    // The annotation's own values are the first candidate when they belong
    // to the space searched.
    Config defaults = space.defaults();
    if (options.dynamic && space.validate(defaults).empty() &&
        !seen.count(key(defaults))) {
      measure({given(defaults, "default")}, true);
    }
    profileKnobs();
    composeKnobs();
    for (int level = 1; level <= kStateLevels && budgetLeft(); ++level)
      if (profileStates(level))
        composeKnobs();
    size_t duplicates = 0;
    while (budgetLeft()) {
      std::vector<Pending> batch;
      size_t want = std::min<size_t>(std::max(1u, options.workers),
                                     options.maxEvals - counted);
      while (batch.size() < want) {
        if (duplicates > 5000) {
          result.stopReason = "no new configurations proposed (space "
                              "nearly exhausted)";
          break;
        }
        long arm = -1;
        Point x;
        long tag = 0;
        for (size_t a : bandit.ranking())
          if (techniques[a]->propose(rng, archive, x, tag)) {
            arm = long(a);
            break;
          }
        if (arm < 0)
          break; // everyone waits for this batch
        Config c = encoding.decode(x);
        std::string k = key(c);
        if (auto it = seen.find(k); it != seen.end()) {
          // Measured before: the technique learns the score at no cost,
          // and the bandit counts a use without credit (else a technique
          // stuck on a point would be chosen forever).
          techniques[size_t(arm)]->observe(tag, x, scores[it->second]);
          bandit.reward(size_t(arm), 0);
          ++duplicates;
          continue;
        }
        auto same = std::find_if(batch.begin(), batch.end(),
                                 [&](const Pending &p) {
                                   return key(p.config) == k;
                                 });
        if (same != batch.end()) {
          same->askers.push_back({arm, tag, x});
          bandit.reward(size_t(arm), 0);
          ++duplicates;
          continue;
        }
        duplicates = 0;
        batch.push_back({c, techniques[size_t(arm)]->name(), {{arm, tag, x}}});
      }
      if (batch.empty())
        break;
      measure(batch, true);
      if (duplicates > 5000)
        break;
    }
  }

  /// Measures a batch (concurrently), then records the results in order.
  void measure(const std::vector<Pending> &batch, bool counts) {
    std::vector<Measurement> results(batch.size());
    std::vector<bool> replayed(batch.size(), false);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < batch.size(); ++i) {
      // Replayed measurements are taken in their stored order.
      if (auto it = prior.find(key(batch[i].config));
          it != prior.end() && !it->second.empty()) {
        results[i] = it->second.front().result;
        clockOffset = std::max(clockOffset,
                               it->second.front().clock - sessionSeconds());
        it->second.pop_front();
        replayed[i] = true;
        continue;
      }
      bool baseline = result.evaluations.empty() && i == 0;
      if (batch.size() == 1) {
        results[i] = measureCandidate(batch[i].config, baseline);
        continue;
      }
      threads.emplace_back([&, i, baseline] {
        results[i] = measureCandidate(batch[i].config, baseline);
      });
    }
    for (std::thread &t : threads)
      t.join();

    for (size_t i = 0; i < batch.size(); ++i) {
      const Pending &p = batch[i];
      Evaluation e;
      e.seq = result.evaluations.size();
      e.technique = p.technique;
      e.config = p.config;
      e.result = results[i];
      e.clock = elapsed();
      if (!replayed[i]) {
        ++result.newEvaluations;
        if (options.onEvaluation)
          options.onEvaluation(e);
      }
      if (e.result.status == EvalStatus::Screened)
        ++result.screened;
      else if (!e.result.ok())
        ++result.failed;
      if (counts)
        ++counted;
      result.evaluations.push_back(e);
      if (e.seq == 0)
        baseTime = std::max(e.result.time, 1e-12);
      record(p, score(e.result));
    }
    report();
  }

  /// One candidate's measurement on the tuning set, screened first when
  /// screening is on (never the exact baseline).
  Measurement measureCandidate(const Config &c, bool baseline) const {
    if (baseline)
      return measureBaseline(c);
    if (options.screenBelow <= 0)
      return evaluate(c, InputSet::Tuning);
    Measurement screen = evaluate(c, InputSet::Screen);
    if (!screen.ok())
      return screen; // a failure on part of the inputs is a failure
    if (screen.qos >= options.screenBelow)
      return evaluate(c, InputSet::Tuning);
    char why[128];
    std::snprintf(why, sizeof why,
                  "screened out: qos %.4f on the screen set, below %.4g",
                  screen.qos, options.screenBelow);
    screen.status = EvalStatus::Screened;
    screen.message = why;
    return screen;
  }

  /// The exact baseline, measured to options.baselineSamples time samples:
  /// every speedup is relative to it, and its spread is the noise a
  /// speedup must exceed.
  Measurement measureBaseline(const Config &c) const {
    Measurement m = evaluate(c, InputSet::Tuning);
    while (m.ok() && m.samples.size() < options.baselineSamples) {
      Measurement more = evaluate(c, InputSet::Tuning);
      if (!more.ok())
        return more;
      if (more.samples.empty())
        break;
      m.samples.insert(m.samples.end(), more.samples.begin(), more.samples.end());
    }
    if (m.samples.size() > 1)
      m.time = median(m.samples);
    return m;
  }

  /// Adds the newest evaluation to the archive and credits its techniques.
  void record(const Pending &p, double s) {
    size_t index = result.evaluations.size() - 1;
    seen.emplace(key(p.config), index);
    scores.push_back(s);
    bool improved = archive.best < 0 || s < archive.entries[size_t(archive.best)].score;
    Point x = p.askers.empty() ? encoding.encode(p.config) : p.askers.front().x;
    archive.add(x, s);
    entryOf.push_back(archive.entries.size() - 1);
    // The frontier so far: that of the previous frontier and the new point
    // (a point off the frontier stays off it). Feasible points only count as
    // credit.
    std::vector<size_t> candidates = frontier;
    candidates.push_back(index);
    std::sort(candidates.begin(), candidates.end());
    frontier = frontierOf(result.evaluations, std::move(candidates));
    bool joined =
        std::find(frontier.begin(), frontier.end(), index) != frontier.end() &&
        result.evaluations[index].result.qos >= options.qosMin;
    archive.frontier.clear();
    for (size_t f : frontier)
      archive.frontier.push_back(entryOf[f]);
    for (const Pending::Asker &a : p.askers) {
      if (a.technique < 0)
        continue;
      techniques[size_t(a.technique)]->observe(a.tag, a.x, s);
      bandit.reward(size_t(a.technique), improved || joined ? 1.0 : 0.0);
    }
  }

  void report() {
    if (!options.onProgress)
      return;
    Progress pr;
    pr.evaluations = counted;
    pr.maxEvals = options.maxEvals;
    pr.failed = result.failed;
    pr.screened = result.screened;
    pr.frontier = frontier.size();
    pr.elapsed = elapsed();
    pr.timeBudget = options.timeBudget;
    long best = bestIndex();
    if (best >= 0) {
      pr.haveBest = true;
      pr.bestSpeedup = baseTime / result.evaluations[size_t(best)].result.time;
      pr.bestQos = result.evaluations[size_t(best)].result.qos;
    }
    options.onProgress(pr);
  }

  long bestIndex() const {
    long best = -1;
    for (size_t i = 0; i < result.evaluations.size(); ++i) {
      const Measurement &m = result.evaluations[i].result;
      if (m.ok() && m.qos >= options.qosMin &&
          (best < 0 || m.time < result.evaluations[size_t(best)].result.time))
        best = long(i);
    }
    return best;
  }

  TuneResult finish() {
    result.frontier = frontier;
    result.best = bestIndex();
    result.seconds = elapsed();
    return std::move(result);
  }

  const Space &space;
  const EvaluateFn &evaluate;
  const TuneOptions &options;
  Encoding encoding;
  Rng rng;
  Bandit bandit;
  std::vector<std::unique_ptr<Technique>> techniques;
  std::map<std::string, std::deque<Evaluation>> prior;
  std::map<std::string, size_t> seen; // config key -> evaluation index
  std::vector<double> scores;         // per evaluation
  std::vector<size_t> entryOf;        // evaluation -> archive entry
  Archive archive;
  TuneResult result;
  std::chrono::steady_clock::time_point start;
  double clockOffset = 0;
  double baseTime = 1;
  ValueOrder valueOrder;  // per knob, exact to most aggressive
  Composer composer;
  // Per knob: value -> (time ratio, loss) of the knob alone at it.
  std::vector<std::map<int64_t, std::pair<double, double>>> staticEffect;
  static constexpr size_t kMaxOptions = 24;
  static constexpr int kStateLevels = 4; // up to 31 cuts
  std::vector<std::vector<KnobOption>> staticOptions; // per knob
  std::vector<size_t> frontier; // indices into result.evaluations
  size_t counted = 0;
};

} // namespace

void enumerateSpace(const Space &space, bool dynamic,
                    const std::function<bool(const Config &)> &visit) {
  Encoding(space, dynamic).enumerate(visit);
}

std::string progressLine(const Progress &p) {
  char best[96], left[48] = "";
  if (p.haveBest)
    std::snprintf(best, sizeof best, "best %.2fx (qos %.4f)", p.bestSpeedup,
                  p.bestQos);
  else
    std::snprintf(best, sizeof best, "no configuration meets the bound yet");
  if (p.timeBudget > 0)
    std::snprintf(left, sizeof left, ", %.0f s left",
                  std::max(0.0, p.timeBudget - p.elapsed));
  char screened[48] = "";
  if (p.screened)
    std::snprintf(screened, sizeof screened, ", %zu screened out", p.screened);
  char line[320];
  std::snprintf(line, sizeof line,
                "%zu/%zu evaluations, %s, frontier %zu, %zu failed%s, %.0f s%s",
                p.evaluations, p.maxEvals, best, p.frontier, p.failed,
                screened, p.elapsed, left);
  return line;
}

double TuneResult::baselineNoise() const {
  if (evaluations.empty() || evaluations[0].result.samples.size() < 3)
    return -1;
  return relativeSpread(evaluations[0].result.samples);
}

bool TuneResult::withinNoise(double speedup) const {
  double noise = baselineNoise();
  return noise >= 0 && speedup <= 1 + noise;
}

TuneResult tune(const Space &space, const EvaluateFn &evaluate,
                const TuneOptions &options) {
  return Search(space, evaluate, options).run();
}

} // namespace approx::tune
