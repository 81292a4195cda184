//===- Report.h - what a tuning run tells its user --------------*- C++ -*-===//
//
// Speedups at QoS-loss levels, the Pareto CSV, the SVG plot, the speedup
// table and summary.json of a tuning run, with the frontier optionally
// re-measured on a held-out evaluation input set.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_REPORT_H
#define APPROX_TUNER_REPORT_H

#include "approx/Tuner/Search.h"

#include <optional>
#include <string>
#include <vector>

namespace approx::tune {

/// The QoS-loss levels of the speedup table (fractions).
const std::vector<double> &lossLevels();

/// The frontier re-measured on the evaluation set: baseline first, then one
/// measurement per frontier point (same order as TuneResult::frontier).
struct Holdout {
  Measurement baseline;
  std::vector<Measurement> frontier;
};

/// Re-measures the baseline and the frontier of `result` on the evaluation
/// input set.
Holdout remeasureFrontier(const TuneResult &result, const EvaluateFn &evaluate,
                          unsigned workers);

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

  std::vector<Measurement> tuningPoints() const; // every successful one
  double tuningSpeedup(double loss) const;
  std::optional<double> evaluationSpeedup(double loss) const;

  /// Header `time_s,qos,speedup,<parameters...>`, one row per frontier
  /// point in ascending time; with a holdout also the evaluation-set time,
  /// QoS and speedup.
  std::string paretoCsv() const;
  /// All points (grey) and the frontier (line) as QoS loss vs speedup.
  std::string plotSvg() const;
  /// Speedup at QoS loss <= 1/3/6/9 % on both input sets, and their gap.
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
