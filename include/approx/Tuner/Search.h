//===- Search.h - searching a configuration space ---------------*- C++ -*-===//
//
// Minimises time subject to QoS >= a bound and keeps every measurement, so
// that the whole time/QoS Pareto frontier comes out of one run. Small spaces
// are enumerated; larger ones are searched by an ensemble of techniques
// (differential evolution, Nelder-Mead, greedy mutation, uniform random)
// chosen by a multi-armed bandit, as OpenTuner does. Everything random comes
// from one seeded generator: with a deterministic evaluator, the same seed and
// worker count give the same run.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_H
#define APPROX_TUNER_SEARCH_H

#include "approx/Tuner/Evaluator.h"
#include "approx/Tuner/Space.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace approx::tune {

/// One measured configuration of a run.
struct Evaluation {
  size_t seq = 0;        // order within the run; 0 is the exact baseline
  std::string technique; // exact, default, exhaustive, de, nelder-mead, ...
  Config config;
  Measurement result;
  /// The search's clock when it was recorded: seconds since the run began,
  /// the time of earlier sessions of a resumed run included (0 where not
  /// known: stores written before it was kept). A resumed run's clock, and
  /// so its --time-budget, continues from the last one replayed.
  double clock = 0;
};

struct Progress {
  size_t evaluations = 0, maxEvals = 0, failed = 0, frontier = 0,
         screened = 0;
  double elapsed = 0, timeBudget = 0;
  bool haveBest = false;
  double bestSpeedup = 0, bestQos = 0;
};

struct TuneOptions {
  double qosMin = 0.9;
  /// Evaluations of candidate configurations (the baseline not counted).
  size_t maxEvals = 100;
  /// Seconds; 0 = no limit. Evaluations under way are completed.
  double timeBudget = 0;
  uint64_t seed = 1;
  /// Configurations measured at once (the evaluator is called concurrently).
  unsigned workers = 1;
  /// Decision trees (dynamic) or one transform value per knob (static).
  bool dynamic = true;
  /// Time samples the exact baseline is measured to on the tuning set (the
  /// evaluator is called again until it has them; 1: as any configuration).
  /// Their spread is the run's measured noise (TuneResult::baselineNoise).
  unsigned baselineSamples = 1;
  /// The rule approx-tune and the Python API use: 2N+1 samples for N > 1
  /// repetitions per configuration (the noise is then measured more finely
  /// than any configuration's time), else 1.
  static unsigned baselineSamplesFor(unsigned repetitions) {
    return repetitions > 1 ? 2 * repetitions + 1 : 1;
  }
  /// Screening (multi-fidelity), off at 0: each candidate (not the exact
  /// baseline) is measured first on the screen set (InputSet::Screen) and
  /// on the tuning set only when its QoS there is at least this bound;
  /// below it, the screen measurement is its result, status Screened. A
  /// bound under qosMin by a margin keeps the picks: only candidates far
  /// from feasible are ruled out on the smaller set.
  double screenBelow = 0;
  /// Configurations measured first, after the baseline and in this order
  /// (e.g. the static frontier when searching the dynamic space), each
  /// counted against the budget; the techniques then build on them. They
  /// must belong to the space searched (Space::validate, and
  /// Space::toStatic for a static search).
  std::vector<Config> start;
  /// Resume: the evaluations of an earlier run with the same options. The
  /// search replays that run, reusing these measurements instead of calling
  /// the evaluator, and continues where it stopped.
  std::vector<Evaluation> prior;
  /// Called for each new (not replayed) evaluation, in order.
  std::function<void(const Evaluation &)> onEvaluation;
  /// Called after each batch of evaluations.
  std::function<void(const Progress &)> onProgress;
  /// Asked before each batch: true ends the search (stop reason
  /// "stopped"); evaluations under way are completed first. Python's
  /// Ctrl-C uses it.
  std::function<bool()> stop;
};

struct TuneResult {
  std::vector<Evaluation> evaluations; // [0] is the exact baseline
  /// Indices in ascending time: runFrontier of the evaluations (the
  /// Pareto frontier, and in a dynamic run the static configurations' own).
  std::vector<size_t> frontier;
  long best = -1;        // fastest evaluation with QoS >= qosMin, or -1
  size_t newEvaluations = 0; // evaluations made (not replayed from `prior`)
  size_t failed = 0;
  size_t screened = 0; // ruled out on the screen set (EvalStatus::Screened)
  bool exhaustive = false;
  double seconds = 0;
  std::string stopReason;
  /// The noise a speedup must exceed: how much faster than the exact
  /// baseline's median time (tuning set) the lower end of a distribution-
  /// free 95 % confidence interval for that median is, as a speedup minus
  /// one (median / x_(k) - 1, x_(k) the k-th smallest sample, k the largest
  /// with P(Binomial(n, 1/2) < k) <= 2.5 %, at least 1); negative (unknown)
  /// with fewer than 3 samples.
  double baselineNoise() const;
  /// Whether `speedup` over the baseline is within that noise (false when
  /// the noise is unknown).
  bool withinNoise(double speedup) const;
  bool baselineOk() const {
    return !evaluations.empty() && evaluations[0].result.ok();
  }
};

/// The exact configuration: every decision and knob value 0, thresholds at
/// their annotation values, schedule choices at the script's
/// (TunableParam::baseline).
Config exactConfig(const Space &space);

/// The configurations of `space` in the given mode, in a fixed order; calls
/// `visit` until it returns false.
void enumerateSpace(const Space &space, bool dynamic,
                    const std::function<bool(const Config &)> &visit);

/// Indices of the successful evaluations on the time/QoS Pareto frontier
/// (no other one is at least as fast and at least as accurate, and strictly
/// better in one), in ascending time.
std::vector<size_t> paretoFrontier(const std::vector<Evaluation> &evals);

/// Whether `config` is a point of the static space: every decision tree
/// decides alike (Space::toStatic).
bool isStatic(const Space &space, const Config &config);

/// A run's frontier (TuneResult::frontier), in ascending time: the Pareto
/// frontier of the successful evaluations; in a dynamic run joined by the
/// Pareto frontier of its static configurations (isStatic). A static
/// configuration deploys without its trees' state: baked, a constant
/// decision leaves the state computation dead, while the runtime-table
/// build a search measures on still runs it. So a tree with mixed
/// decisions that beats one on the tuning set may lose to it deployed
/// (jpeg's DC-only coding: 5.5x on the table build, 10.4x baked), and the
/// held-out re-measurement and certification, on the build as it deploys,
/// judge both. Such a point can be dominated on the tuning set.
std::vector<size_t> runFrontier(const Space &space,
                                const std::vector<Evaluation> &evals,
                                bool dynamic);

/// One line of progress, the same in approx-tune and the Python API:
/// "12/100 evaluations, best 1.85x (qos 0.9712), frontier 4, 0 failed,
/// 31 s, 269 s left".
std::string progressLine(const Progress &progress);

/// Runs the search. The baseline (exact configuration) is measured first; if
/// it fails, the result holds just that failed evaluation.
TuneResult tune(const Space &space, const EvaluateFn &evaluate,
                const TuneOptions &options);

} // namespace approx::tune

#endif // APPROX_TUNER_SEARCH_H
