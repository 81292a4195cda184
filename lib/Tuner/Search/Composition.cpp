//===- Composition.cpp - joint configurations the profiles predict ---------===//
#include "Phases.h"

#include <algorithm>
#include <set>

namespace approx::tune::search {
namespace {

class Composition {
public:
  Composition(Run &run, Profiles &profiles)
      : run(run), space(run.space), options(run.options), result(run.result),
        seen(run.seen), counted(run.counted), composer(profiles.composer) {}

  /// Joint configurations the knob profiles predict fastest within the
  /// bound (Compose.h), measured a batch (`workers`) at a time; each
  /// measurement corrects the model's loss scale (knobs whose losses
  /// amplify each other).
  void composeKnobs() {
    if (composer.options.empty())
      return;
    // The exact configuration's QoS, copied: measuring appends to
    // result.evaluations, which may move (a reference into it dangled, and
    // the loss scale read freed memory: runs differed from run to run).
    const double baseQos = result.evaluations[0].result.qos;
    double allowed = baseQos - options.qosMin;
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
        std::string k = run.keyOf(c);
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
            std::max(0.0, baseQos - m.qos) / predicted, 0.25, 10.0);
        composer.lossScale = m.qos >= options.qosMin
                                 ? observed
                                 : std::max(observed, composer.lossScale * 1.05);
      }
    }
  }

private:
  bool budgetLeft() { return run.budgetLeft(); }
  Pending given(const Config &c, const char *technique) const {
    return run.given(c, technique);
  }
  void measure(const std::vector<Pending> &batch, bool counts) { run.measure(batch, counts); }
  static Config merged(Config c, const std::map<std::string, int64_t> &s) {
    return Run::merged(std::move(c), s);
  }

  Run &run;
  const Space &space;
  const TuneOptions &options;
  const TuneResult &result;
  const std::map<std::string, size_t> &seen;
  const size_t &counted;
  Composer &composer;
};

} // namespace

void composeKnobs(Run &run, Profiles &profiles) { Composition(run, profiles).composeKnobs(); }

} // namespace approx::tune::search
