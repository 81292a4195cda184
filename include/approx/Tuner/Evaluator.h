//===- Evaluator.h - measuring one configuration ----------------*- C++ -*-===//
//
// How the tuner measures a configuration: a callback (in process: a JIT
// module or a shared library setting the runtime knob table), or a command
// that reads the configuration from APPROX_CONFIG and prints
//
//   approx-result: time=<seconds> qos=<0..1>
//
// and, when APPROX_QOS_DETAIL names a file, writes there one line per input,
// `<input id> <score>` with the score in [0, 1]: the per-input outcomes that
// certification pairs against the exact configuration's (docs/tuning.md).
//
// Failures (non-zero exit, signal, timeout, no result line, values out of
// range) are measurements with a failed status, never exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_EVALUATOR_H
#define APPROX_TUNER_EVALUATOR_H

#include "approx/Tuner/Space.h"

#include <functional>
#include <string>
#include <vector>

namespace approx::tune {

/// Screened: measured on the screen set only, where its QoS fell below the
/// search's screening bound (TuneOptions::screenBelow); its time and QoS are
/// the screen set's, and it is never a pick. Unmeasured: a frontier point a
/// re-measurement did not take (certification measures the frontier only
/// as far as a level's fixed sequence can reach); never stored.
enum class EvalStatus {
  Ok,
  Failed,
  Crashed,
  Timeout,
  Unparsable,
  Screened,
  Unmeasured
};
const char *statusName(EvalStatus status);
/// Inverse of statusName; false for an unknown name.
bool parseStatus(const std::string &name, EvalStatus &status);

/// The input set a measurement runs on: the tuning set, the disjoint
/// evaluation (held-out, test) set the frontier is re-measured on, the
/// calibration set certification runs on (disjoint from both), or the
/// screen set: a small part of the tuning set that a search with screening
/// measures each candidate on first (its QoS against the exact
/// configuration's on the same inputs). The tuning command measures it.
enum class InputSet { Tuning, Evaluation, Calibration, Screen };
const char *inputSetName(InputSet set);

/// The score of one input: its id (no whitespace) and a value in [0, 1]
/// (1/0 for an answer right or wrong; a kernel's QoS on that input).
struct InputScore {
  std::string id;
  double score = 0;
  bool operator==(const InputScore &o) const {
    return id == o.id && score == o.score;
  }
};

/// One measurement of one configuration.
struct Measurement {
  EvalStatus status = EvalStatus::Ok;
  double time = 0;             // median of `samples`, seconds
  double qos = 0;              // median over repetitions, in [0, 1]
  std::vector<double> samples; // time of each repetition
  std::string message;         // why it failed
  /// Per-input scores (APPROX_QOS_DETAIL), of the first repetition; empty
  /// when the evaluator reports none.
  std::vector<InputScore> detail;
  bool ok() const { return status == EvalStatus::Ok; }
};

/// Measures one configuration on one input set. With several workers it is
/// called from several threads at once.
using EvaluateFn = std::function<Measurement(const Config &, InputSet)>;

/// An evaluator measuring each input set with its own evaluator.
EvaluateFn perInputSet(EvaluateFn tuning, EvaluateFn evaluation,
                       EvaluateFn calibration);

/// The median of `v` (0 when empty).
double median(std::vector<double> v);

/// The relative spread of time samples, (max - min) / median; negative
/// when it is undefined (no samples, or a median of 0).
double relativeSpread(const std::vector<double> &samples);

/// Runs `once` up to `repetitions` times and combines the results: medians of
/// time and QoS; the first failure is the result. With `timeTolerance` > 0,
/// repetitions adapt to the noise measured: after two runs that agree on
/// the QoS (a deterministic QoS needs no more) and whose times' spread
/// (max - min over the median) is within the tolerance, no more are run;
/// noisy timings repeat up to `repetitions`.
Measurement repeatMeasurement(const std::function<Measurement()> &once,
                              unsigned repetitions, double timeTolerance = 0);

/// Finds the last `approx-result: time=<s> qos=<q>` line of `output`; on
/// failure returns false and says why in `error`.
bool parseResultLine(const std::string &output, double &time, double &qos,
                     std::string &error);

/// Parses an APPROX_QOS_DETAIL file's `text` (`<id> <score>` per line;
/// blank lines and `#` comments skipped). False with a located error
/// ("<path>:<line>: ...") on a malformed line, a score outside [0, 1], a
/// repeated id, or no line at all.
bool parseQosDetail(const std::string &text, const std::string &path,
                    std::vector<InputScore> &detail, std::string &error);

/// Text of `detail` in the format parseQosDetail reads.
std::string formatQosDetail(const std::vector<InputScore> &detail);

struct CommandOptions {
  std::string command;     // run by /bin/sh -c
  unsigned repetitions = 3;  // at most
  double timeoutSeconds = 0; // per run; 0 = none
  double timeTolerance = 0;  // adaptive repetitions (repeatMeasurement)
};

/// Runs `options.command` with APPROX_CONFIG=<a JSON file holding the
/// configuration>, APPROX_INPUT_SET=tuning|evaluation|calibration|screen and
/// APPROX_QOS_DETAIL=<a file for per-input scores> in its environment, and
/// parses its result line and, when the command wrote it, the detail file
/// (malformed: an unparsable measurement). Safe to call from several
/// threads.
EvaluateFn commandEvaluator(const CommandOptions &options);

/// The per-evaluation timeout when none is given: the first measurement (the
/// exact run) gets kFirstRunTimeout seconds, later ones derivedTimeout of
/// its wall time (10x + 10 s). approx-tune and the Python API share it.
inline constexpr double kFirstRunTimeout = 3600;
inline double derivedTimeout(double firstWallSeconds) {
  return 10 * firstWallSeconds + 10;
}

/// An evaluator of `options.command` whose per-run timeout is
/// `explicitTimeout` seconds when positive, else set by the first
/// measurement it makes (the exact run, given an hour): 10x that run's
/// wall time + 10 s. `make` builds an evaluator for given options (locally
/// commandEvaluator; with MPI, the coordinator's).
EvaluateFn calibratedCommandEvaluator(
    CommandOptions options, double explicitTimeout,
    std::function<EvaluateFn(const CommandOptions &)> make);

/// Stops the process group of every command evaluation still running
/// (each runs in its own group, so a terminal's Ctrl-C does not reach it):
/// SIGTERM, so that a command's own cleanup runs (a script's trap removing
/// its temporary files), then SIGKILL for what is left after two seconds;
/// and keeps the stopped ones from returning a measurement. Async-signal-
/// safe: tools call it from their interrupt handler (before exiting) so that
/// no evaluation outlives them and none is recorded as a crash.
void killRunningEvaluations();

/// Removes the configuration and detail files of the evaluations running
/// and the evaluators' scratch directories (`$TMPDIR/approx-tune-*`), which
/// a tool ending in its interrupt handler would otherwise leave behind.
/// Async-signal-safe; call it after killRunningEvaluations, just before
/// exiting (evaluators made afterwards are not affected, but the ones it
/// cleaned cannot write files any more).
void removeEvaluationFiles();

} // namespace approx::tune

#endif // APPROX_TUNER_EVALUATOR_H
