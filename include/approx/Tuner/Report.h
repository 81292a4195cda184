//===- Report.h - what a tuning run tells its user --------------*- C++ -*-===//
//
// Speedups at QoS-loss levels, the Pareto CSV, the SVG plot, the speedup
// table and summary.json of a tuning run, with the frontier optionally
// re-measured on a held-out evaluation (test) input set and certified on a
// calibration set; each level's deployment pick, computed once here, is
// read back from summary.json by every script.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_REPORT_H
#define APPROX_TUNER_REPORT_H

#include "approx/Tuner/Certify.h"
#include "approx/Tuner/Search.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace approx::tune {

/// The QoS-loss levels of the speedup table (fractions).
const std::vector<double> &lossLevels();

/// The deployable configuration file of a loss level's pick ("config_3.json"
/// for 0.03), written beside best_config.json and named in summary.json.
std::string levelConfigFile(double loss);

/// The frontier re-measured on the evaluation set: baseline first, then one
/// measurement per frontier point (same order as TuneResult::frontier).
struct Holdout {
  Measurement baseline;
  std::vector<Measurement> frontier;
};

/// Which frontier points a re-measurement takes, and when it may stop:
/// the points in `points` (frontier indices) in that order, a batch of one
/// per worker at a time; after each batch `enough` is asked with what has
/// been measured (the baseline's first measurement, and the points so far),
/// and true ends it. The points it did not take are EvalStatus::Unmeasured.
struct MeasureOrder {
  std::vector<size_t> points;
  std::function<bool(const Holdout &)> enough;
};

/// Re-measures the baseline and the frontier of `result` on `set` (the
/// evaluation set unless told): every point, or those `order` takes.
Holdout remeasureFrontier(const TuneResult &result, const EvaluateFn &evaluate,
                          unsigned workers,
                          InputSet set = InputSet::Evaluation,
                          const MeasureOrder *order = nullptr);

/// A measurement's QoS from its per-input scores, paired with the exact
/// configuration's on the same inputs: relative (uncapped: above 1 when
/// more accurate than exact) and absolute (the mean score).
struct PairedQos {
  double relative = 0, accuracy = 0;
  size_t inputs = 0;
};
std::optional<PairedQos> pairedQos(const Measurement &exact,
                                   const Measurement &m);

/// The frontier measured on the calibration set and what it certifies.
struct Certification {
  double delta = 0.05;
  BoundKind bound = BoundKind::Betting;
  Holdout measured; // the baseline and each frontier point
  /// Frontier indices in the order tested (most accurate first; points
  /// equal to the exact configuration are not tested: their loss is 0).
  std::vector<size_t> order;
  /// One per certified level: lossLevels(), then the run's QoS bound.
  std::vector<LevelCertificate> levels;
  /// Each tested point's paired outcomes (same order as `order`).
  std::vector<Candidate> candidates;
};

/// The configuration a level deploys: the certified one when the run
/// certified, else the fastest frontier point meeting the level on the
/// tuning set; the evaluation set only reports it.
struct LevelPick {
  double loss = 0;
  long point = -1; // index into TuneResult::frontier; -1: the exact one
  bool certified = false;
  /// > 0: the point the level would pick, at this tuning-set speedup, is
  /// not faster than the exact configuration by more than its measured
  /// noise (TuneResult::baselineNoise), so the exact one is deployed.
  double withinNoise = 0;
  /// > 0: the certified pick's speedup on the calibration set, where it was
  /// no faster than the exact configuration: its loss is certified, its
  /// gain is not there, so the exact one is deployed.
  double slowerCertified = 0;
};

/// The largest speedup over `baseline` among `points` with QoS >= 1 - loss
/// (1 when none; the exact configuration always qualifies).
double speedupAt(double baselineTime, const std::vector<Measurement> &points,
                 double loss);

/// Everything the outputs need.
struct Report {
  std::string space, mode, command;
  double qosMin = 0;
  uint64_t seed = 0;
  double spaceSize = 0;
  const Space *params = nullptr;
  const TuneResult *result = nullptr;
  std::optional<Holdout> holdout;
  std::optional<Certification> certification;

  std::vector<Measurement> tuningPoints() const; // every successful one
  /// The largest tuning-set speedup at `loss`; 1 when it is within the
  /// exact configuration's measured noise.
  double tuningSpeedup(double loss) const;
  std::optional<double> evaluationSpeedup(double loss) const;
  /// The deployment pick at `loss`.
  LevelPick pick(double loss) const;
  /// The certificate of `loss` (nullptr without certification).
  const LevelCertificate *certificate(double loss) const;
  /// Lines naming each configuration more accurate than the exact one on
  /// an input set with per-input scores ("" when none is).
  std::string dominatedNote() const;

  /// Header `time_s,qos,speedup,<parameters...>`, one row per frontier
  /// point in ascending time; with a holdout also the evaluation-set time,
  /// QoS and speedup.
  std::string paretoCsv() const;
  /// All points (grey) and the frontier (line) as QoS loss vs speedup.
  std::string plotSvg() const;
  /// Speedup at QoS loss <= 1/3/6/9 % on both input sets, and their gap;
  /// the certified picks; configurations more accurate than exact.
  std::string speedupTable() const;
  std::string summaryJson() const;
};

/// The configurations of a pareto.csv written by Report::paretoCsv for
/// `space`, one per row, and the line each comes from. False with `error`
/// ("<path>:<line>: ...") when a column is neither a metric nor a parameter
/// of `space`, or a value is not an integer.
bool readParetoCsv(const std::string &path, const Space &space,
                   std::vector<Config> &configs, std::vector<size_t> &lines,
                   std::string &error);

} // namespace approx::tune

#endif // APPROX_TUNER_REPORT_H
