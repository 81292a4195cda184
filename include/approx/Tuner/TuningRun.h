//===- TuningRun.h - one tuning run, from the store to the reports -*- C++ -*-===//
//
// A tuning run: the results store (a new run, or the latest one of the same
// space resumed by replay), the search on the tuning set, the frontier
// re-measured on the held-out evaluation (test) set, certification of a
// pick per loss level on the calibration set, and the reports, each level's
// deployment pick included. approx-tune and approx_runtime.tune both drive
// it (as OpenTuner's TuningRunMain serves its CLI and api.py): the tools
// own the command line and the wording of their options, the run owns the
// work.
//
//   TuningRun run(space, settings);
//   if (!run.open(error) || !run.execute(evaluate, error)) ...
//   for (auto &[name, text] : run.outputFiles()) write(name, text);
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_TUNINGRUN_H
#define APPROX_TUNER_TUNINGRUN_H

#include "approx/Tuner/Certify.h"
#include "approx/Tuner/Report.h"
#include "approx/Tuner/Store.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace approx::tune {

enum class Resume {
  No,       // a new run
  Required, // the latest run of this space and mode; an error when none
  IfStored, // that run when there is one, else a new run
};

/// Certification of each level's pick (docs/tuning.md#certification).
struct CertifySettings {
  double delta = 0.05;
  BoundKind bound = BoundKind::Betting;
  /// Runs per configuration on the calibration set: one, as certification
  /// reads the first run's per-input scores and a run's time is already a
  /// sum over the whole set (the exact configuration is measured first and
  /// last all the same). The evaluators apply it (approx-tune's
  /// --calibration-repetitions, the Python API's calibration_fn).
  unsigned repetitions = 1;
  /// With more frontier points than this, only some are candidates, chosen
  /// on the tuning set (thinCandidates); 0: every frontier point.
  size_t candidates = 0;
};

struct RunSettings {
  /// Named in the store and the reports.
  std::string spaceName, command;
  /// The search (qosMin, budgets, seed, workers, mode, start, onProgress,
  /// stop); onEvaluation and prior are the run's.
  TuneOptions options;
  /// The SQLite store; "" keeps nothing.
  std::string storePath;
  Resume resume = Resume::No;
  /// On resume: "" when the stored run may be continued with the options
  /// given, else why not (in the tool's own words: option names differ).
  std::function<std::string(const RunInfo &stored)> checkResume;
  /// Re-measure the frontier on the evaluation set.
  bool holdout = false;
  /// Certify a pick per level on the calibration set.
  std::optional<CertifySettings> certify;
  /// Called for each new evaluation, in order, before it is stored; false
  /// keeps it out of the store (Python: an evaluation Ctrl-C ended).
  std::function<bool(const Evaluation &)> onEvaluation;
  /// A problem that does not stop the run (a failing store), said once.
  std::function<void(const std::string &)> warn;
  /// Progress of the frontier's re-measurement on the evaluation and the
  /// calibration set: called (from any worker, one call at a time) after
  /// each measurement with how many are done and how many at most there
  /// will be (the frontier's points, or certification's candidates, and
  /// the exact configuration twice; certification may stop before them
  /// all).
  std::function<void(InputSet set, size_t done, size_t most)> onRemeasure;
};

/// One progress line of a re-measurement (RunSettings::onRemeasure's
/// arguments), e.g. "calibration set: 3 of at most 9 measurements
/// (certification)".
std::string remeasureLine(InputSet set, size_t done, size_t most);

class TuningRun {
public:
  TuningRun(const Space &space, RunSettings settings);
  ~TuningRun();

  /// Opens the store and starts or resumes the run. False with `error`.
  bool open(std::string &error);

  /// The search, then (as set) the held-out re-measurement and
  /// certification, with `evaluate` on each input set. False with `error`
  /// when the exact configuration fails on a set, or certification cannot
  /// run (no per-input scores). When the exact configuration scored 0 on
  /// every calibration input, nothing is certified (said through `warn`
  /// and in the outputs) and every level deploys the exact configuration.
  bool execute(const EvaluateFn &evaluate, std::string &error);

  const TuneResult &result() const { return tuned; }
  const Report &report() const { return rep; }
  const RunInfo &runInfo() const { return run; }
  /// The options the search ran with (resume: the stored run's).
  const TuneOptions &options() const { return settings.options; }

  /// The configuration best_config.json holds: with certification, the
  /// one certified at the run's QoS bound (`certified` set; the exact one
  /// when none is); else the fastest meeting the bound on the tuning set
  /// (the exact one when none does, or when its speedup is within the
  /// exact configuration's measured noise: TuneResult::withinNoise).
  const Evaluation &best(bool &certified) const;

  /// best_config.json, pareto.csv, plot.svg, speedup.txt and summary.json,
  /// named and with their text (tuned MLIR is the tools' own: it needs the
  /// program's IR).
  std::vector<std::pair<std::string, std::string>> outputFiles() const;

private:
  void store(InputSet set, const Evaluation &e);
  /// Stores the exact configuration's and each frontier point's
  /// re-measurement on `set`.
  void storeRemeasured(InputSet set, const Holdout &h);
  bool certify(const EvaluateFn &evaluate, std::string &error);
  /// `evaluate` reporting each measurement on `set` to onRemeasure, of at
  /// most `points` approximate frontier points and the exact configuration
  /// twice.
  EvaluateFn reporting(const EvaluateFn &evaluate, InputSet set,
                       size_t points) const;

  const Space &space;
  RunSettings settings;
  std::unique_ptr<Store> db;
  RunInfo run;
  size_t nextSeq = 0;
  bool resumed = false, storeWarned = false;
  TuneResult tuned;
  Report rep;
};

} // namespace approx::tune

#endif // APPROX_TUNER_TUNINGRUN_H
