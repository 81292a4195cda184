//===- Store.h - the results store (SQLite) ---------------------*- C++ -*-===//
//
// One SQLite file keeps every tuning run (space, options, machine) and every
// evaluation (configuration, status, time samples, QoS, message, input set).
// A run can be resumed from it and queried with any SQLite client:
//
//   runs(id, started, space, fingerprint, mode, seed, qos_min, workers,
//        command, machine)
//   evaluations(run, seq, input_set, technique, config, status, time, qos,
//               samples, message, detail)
//
// `config` is `name=value,...` sorted by name; `samples` the repetition
// times, comma-separated; `detail` the per-input scores, `id score` lines;
// input_set is tuning, evaluation or calibration.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_STORE_H
#define APPROX_TUNER_STORE_H

#include "approx/Tuner/Search.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace approx::tune {

struct RunInfo {
  long id = 0;
  std::string started, space, fingerprint, mode, command, machine;
  uint64_t seed = 0;
  double qosMin = 0;
  unsigned workers = 1;
};

/// A fingerprint of a space in a mode: equal for the same parameters,
/// bounds and values.
std::string spaceFingerprint(const Space &space, bool dynamic);

/// A one-line description of this machine (CPU, cores, OS).
std::string machineInfo();

class Store;

/// A new run of `space` searched with `options` (fingerprint, mode, seed,
/// QoS bound, workers, this machine), named by `spaceName` and `command`;
/// Store::beginRun starts it.
RunInfo newRunInfo(const Space &space, const TuneOptions &options,
                   const std::string &spaceName, const std::string &command);

/// Resuming `run`: its stored tuning evaluations become `options.prior`.
/// Returns the sequence number the next stored evaluation takes.
size_t loadPrior(Store &store, const RunInfo &run, TuneOptions &options);

std::string formatConfig(const Config &config);
bool parseConfig(const std::string &text, Config &config);

class Store {
public:
  /// Opens or creates the store; nullptr with `error` set on failure.
  static std::unique_ptr<Store> open(const std::string &path,
                                     std::string &error);
  ~Store();

  /// Starts a run (sets `run.id` and `run.started`).
  bool beginRun(RunInfo &run, std::string &error);
  /// The latest run with this fingerprint.
  std::optional<RunInfo> lastRun(const std::string &fingerprint);
  std::vector<RunInfo> runs();

  bool add(long run, InputSet set, const Evaluation &e, std::string &error);
  /// A run's evaluations on one input set, in order.
  std::vector<Evaluation> evaluations(long run, InputSet set);

private:
  explicit Store(sqlite3 *db) : db(db) {}
  sqlite3 *db;
};

} // namespace approx::tune

#endif // APPROX_TUNER_STORE_H
