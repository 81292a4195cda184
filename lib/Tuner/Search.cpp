//===- Search.cpp - searching a configuration space -----------------------===//
//
// The driver: the order of the phases (lib/Tuner/Search/Phases.h) over the
// measured run (Search/Run.h). The search's parts, one concept per file as
// OpenTuner lays out opentuner/search/: the randomness (Rng.h), the
// encoding of configurations (Encoding.h), the archive the techniques see
// (Archive.h), the techniques (Technique.h, one file each), the bandit
// (Bandit.h), the run (Run.h), the profiles and the composition model
// (Profile.cpp, Compose.h, Composition.cpp), the ensemble (Ensemble.cpp)
// and enumeration (Exhaustive.cpp).
//
//===----------------------------------------------------------------------===//
#include "approx/Tuner/Search.h"
#include "approx/Tuner/Certify.h"
#include "Search/Phases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace approx::tune {

Config exactConfig(const Space &space) {
  Config c;
  for (const TunableParam &p : space.params)
    c[p.name] = p.baseline();
  return c;
}

std::vector<size_t> paretoFrontier(const std::vector<Evaluation> &evals) {
  std::vector<size_t> all(evals.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  return search::frontierOf(evals, std::move(all));
}

bool isStatic(const Space &space, const Config &config) {
  Config c = config;
  std::string why;
  return space.toStatic(c, why);
}

std::vector<size_t> runFrontier(const Space &space,
                                const std::vector<Evaluation> &evals,
                                bool dynamic) {
  std::vector<size_t> front = paretoFrontier(evals);
  if (!dynamic)
    return front;
  std::vector<size_t> statics;
  for (size_t i = 0; i < evals.size(); ++i)
    if (isStatic(space, evals[i].config))
      statics.push_back(i);
  for (size_t i : search::frontierOf(evals, std::move(statics)))
    if (std::find(front.begin(), front.end(), i) == front.end())
      front.push_back(i);
  search::sortFrontierOrder(evals, front);
  return front;
}

void enumerateSpace(const Space &space, bool dynamic,
                    const std::function<bool(const Config &)> &visit) {
  search::Encoding(space, dynamic).enumerate(visit);
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
  std::vector<double> s = evaluations[0].result.samples;
  std::sort(s.begin(), s.end());
  // The order statistic: the largest k with P(B < k) = P(B <= k - 1) within
  // 2.5 %, at least 1.
  size_t n = s.size(), k = 1;
  while (k < n && std::exp(logBinomialCdf(n, 0.5, k)) <= 0.025)
    ++k;
  double lower = s[k - 1];
  return lower > 0 ? median(s) / lower - 1 : -1;
}

bool TuneResult::withinNoise(double speedup) const {
  double noise = baselineNoise();
  return noise >= 0 && speedup <= 1 + noise;
}

TuneResult tune(const Space &space, const EvaluateFn &evaluate,
                const TuneOptions &options) {
  search::Run run(space, evaluate, options);
  // The baseline: the exact configuration.
  run.measure({search::Pending{exactConfig(space), "exact", {}}}, /*counts=*/false);
  if (!run.result.baselineOk()) {
    run.result.stopReason = "the exact configuration failed";
    return run.finish();
  }
  run.baseTime = std::max(run.result.evaluations[0].result.time, 1e-12);

  run.measureStart();
  double size = space.size(options.dynamic);
  run.result.exhaustive = run.encoding.dimensions() == 0 ||
                          (std::isfinite(size) && size <= double(options.maxEvals));
  if (run.result.exhaustive) {
    search::runExhaustive(run);
    return run.finish();
  }
  // The annotation's own values are the first candidate when they belong
  // to the space searched.
  Config defaults = space.defaults();
  if (options.dynamic && space.validate(defaults).empty() &&
      !run.seen.count(run.keyOf(defaults)))
    run.measure({run.given(defaults, "default")}, true);
  search::Profiles profiles;
  search::profileKnobs(run, profiles);
  search::composeKnobs(run, profiles);
  for (int level = 1; level <= search::Profiles::kStateLevels && run.budgetLeft(); ++level)
    if (search::profileStates(run, profiles, level))
      search::composeKnobs(run, profiles);
  search::runEnsemble(run);
  return run.finish();
}

} // namespace approx::tune
