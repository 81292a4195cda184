//===- Run.h - the measured run every phase appends to ----------*- C++ -*-===//
//
// The search's shared core: one run of measurements that every phase (the
// profiles, the composition, the ensemble, enumeration: Phases.h) appends
// to. It owns the budget and the clock (resumed runs continue it), the
// batches measured concurrently, the replay of a stored run's measurements
// in their order, the score, and the record every technique and the bandit
// learn from. Phases depend on it; it depends on no phase, and the driver
// (lib/Tuner/Search.cpp, tune) orders the phases. Internal to the search
// (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_RUN_H
#define APPROX_TUNER_SEARCH_RUN_H

#include "Archive.h"
#include "Bandit.h"
#include "Encoding.h"
#include "Rng.h"
#include "Technique.h"
#include "approx/Tuner/Search.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace approx::tune::search {

/// A configuration's text ("name=value;" in name order).
std::string key(const Config &c);

/// Sorts `indices` (into `evals`) in a frontier's order: ascending time,
/// the more accurate of equal times first (stable).
void sortFrontierOrder(const std::vector<Evaluation> &evals,
                       std::vector<size_t> &indices);

/// The frontier among `candidates` (indices into `evals`, ascending).
std::vector<size_t> frontierOf(const std::vector<Evaluation> &evals,
                               std::vector<size_t> candidates);

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

class Run {
public:
  Run(const Space &space, const EvaluateFn &evaluate, const TuneOptions &options);

  /// Whether another evaluation may start (else result.stopReason says why).
  bool budgetLeft();
  /// The search's clock: this session's seconds plus the clock of the last
  /// evaluation replayed from an earlier session.
  double elapsed() const;
  /// Lower is better: the time ratio to the baseline when feasible, else
  /// a penalty growing with the QoS shortfall.
  double score(const Measurement &m) const;

  /// The given starting configurations (options.start), in batches.
  void measureStart();
  /// A configuration to measure that no technique asked for.
  Pending given(const Config &c, const char *technique) const;
  /// Measures `configs` not measured before, in order and in batches of
  /// `workers`, while the budget lasts.
  void measureAll(const std::vector<Config> &configs, const char *technique);
  /// Measures a batch (concurrently), then records the results in order.
  void measure(const std::vector<Pending> &batch, bool counts);

  /// A configuration's key in the run's maps: that of its representative
  /// (Space::canonical), so configurations that run the same code are
  /// measured once.
  std::string keyOf(const Config &c) const;

  /// (time ratio, loss) of a measured configuration, if it succeeded.
  std::optional<std::pair<double, double>> effect(const Config &c) const;
  /// The values knob `k` can take other than its baseline (0, or a
  /// schedule choice's own); none when no configuration runs it.
  std::vector<int64_t> knobValues(size_t k) const;
  /// The settings of knob `k` at value `v` (every decision of a tree).
  std::map<std::string, int64_t> knobAt(const KnobParams &k, int64_t v) const;
  static Config merged(Config c, const std::map<std::string, int64_t> &s) {
    for (const auto &[name, value] : s)
      c[name] = value;
    return c;
  }

  /// The fastest feasible evaluation, or -1.
  long bestIndex() const;
  /// The result, with its frontier, best and clock.
  TuneResult finish();

  const Space &space;
  const EvaluateFn &evaluate;
  const TuneOptions &options;
  Encoding encoding;
  Rng rng;
  Bandit bandit;
  std::vector<std::unique_ptr<Technique>> techniques;
  std::map<std::string, std::deque<Evaluation>> prior;
  std::map<std::string, size_t> seen; // keyOf(config) -> evaluation index
  std::vector<double> scores;         // per evaluation
  std::vector<size_t> entryOf;        // evaluation -> archive entry
  Archive archive;
  TuneResult result;

private:
  std::chrono::steady_clock::time_point start;
  double clockOffset = 0;
  double sessionSeconds() const;
  Measurement measureCandidate(const Config &c, bool baseline) const;
  Measurement measureBaseline(const Config &c) const;
  void record(const Pending &p, double s);
  void report();

public:
  double baseTime = 1;
  ValueOrder valueOrder;        // per knob, exact to most aggressive
  std::vector<size_t> frontier; // indices into result.evaluations
  size_t counted = 0;           // evaluations counted against maxEvals
};

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_RUN_H
