//===- Profile.cpp - knob and state profiles -------------------------------===//
#include "Phases.h"

#include <algorithm>
#include <functional>

namespace approx::tune::search {
namespace {

/// The profiles over a run: the run's state it reads and writes under the
/// names the phase has always used.
class Profiler {
public:
  Profiler(Run &run, Profiles &profiles)
      : run(run), space(run.space), options(run.options), seen(run.seen),
        valueOrder(run.valueOrder), composer(profiles.composer),
        staticEffect(profiles.staticEffect), staticOptions(profiles.staticOptions) {}

  /// Each knob alone at each of its values, the others exact. Orders each
  /// knob's values by the speed-up measured, and gives the composer its
  /// options. (Planned without regard to the budget, as every phase: a
  /// run's evaluations are a prefix of the same sequence whatever its
  /// budget, so a run extended or resumed is the run never stopped.)
  void profileKnobs() {
    std::vector<std::vector<int64_t>> probe;
    for (size_t k = 0; k < space.knobs.size(); ++k)
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
      for (int64_t v : knobValues(k))
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
          added |= !seen.count(run.keyOf(cfg));
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

private:
  void measureAll(const std::vector<Config> &configs, const char *technique) {
    run.measureAll(configs, technique);
  }
  std::vector<int64_t> knobValues(size_t k) const { return run.knobValues(k); }
  std::map<std::string, int64_t> knobAt(const KnobParams &k, int64_t v) const {
    return run.knobAt(k, v);
  }
  static Config merged(Config c, const std::map<std::string, int64_t> &s) {
    return Run::merged(std::move(c), s);
  }
  std::optional<std::pair<double, double>> effect(const Config &c) const {
    return run.effect(c);
  }
  static constexpr size_t kMaxOptions = Profiles::kMaxOptions;

  Run &run;
  const Space &space;
  const TuneOptions &options;
  const std::map<std::string, size_t> &seen;
  ValueOrder &valueOrder;
  Composer &composer;
  std::vector<std::map<int64_t, std::pair<double, double>>> &staticEffect;
  std::vector<std::vector<KnobOption>> &staticOptions;
};

} // namespace

void profileKnobs(Run &run, Profiles &profiles) { Profiler(run, profiles).profileKnobs(); }

bool profileStates(Run &run, Profiles &profiles, int level) {
  return Profiler(run, profiles).profileStates(level);
}

} // namespace approx::tune::search
