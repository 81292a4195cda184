//===- Evaluator.h - measuring one configuration ----------------*- C++ -*-===//
//
// How the tuner measures a configuration: a callback (in process: a JIT
// module or a shared library setting the runtime knob table), or a command
// that reads the configuration from APPROX_CONFIG and prints
//
//   approx-result: time=<seconds> qos=<0..1>
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

enum class EvalStatus { Ok, Failed, Crashed, Timeout, Unparsable };
const char *statusName(EvalStatus status);
/// Inverse of statusName; false for an unknown name.
bool parseStatus(const std::string &name, EvalStatus &status);

/// The input set a measurement runs on: the tuning set, or the disjoint
/// evaluation (held-out) set the frontier is re-measured on.
enum class InputSet { Tuning, Evaluation };
const char *inputSetName(InputSet set);

/// One measurement of one configuration.
struct Measurement {
  EvalStatus status = EvalStatus::Ok;
  double time = 0;             // median of `samples`, seconds
  double qos = 0;              // median over repetitions, in [0, 1]
  std::vector<double> samples; // time of each repetition
  std::string message;         // why it failed
  bool ok() const { return status == EvalStatus::Ok; }
};

/// Measures one configuration on one input set. With several workers it is
/// called from several threads at once.
using EvaluateFn = std::function<Measurement(const Config &, InputSet)>;

/// The median of `v` (0 when empty).
double median(std::vector<double> v);

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

struct CommandOptions {
  std::string command;     // run by /bin/sh -c
  unsigned repetitions = 3;  // at most
  double timeoutSeconds = 0; // per run; 0 = none
  double timeTolerance = 0;  // adaptive repetitions (repeatMeasurement)
};

/// Runs `options.command` with APPROX_CONFIG=<a JSON file holding the
/// configuration> and APPROX_INPUT_SET=tuning|evaluation in its environment,
/// and parses its result line. Safe to call from several threads.
EvaluateFn commandEvaluator(const CommandOptions &options);

/// Kills the process group of every command evaluation still running
/// (each runs in its own group, so a terminal's Ctrl-C does not reach it)
/// and keeps the killed ones from returning a measurement. Async-signal-
/// safe: tools call it from their interrupt handler (before exiting) so that
/// no evaluation outlives them and none is recorded as a crash.
void killRunningEvaluations();

} // namespace approx::tune

#endif // APPROX_TUNER_EVALUATOR_H
