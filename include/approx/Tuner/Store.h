//===- Store.h - the results store (SQLite) ---------------------*- C++ -*-===//
//
// One SQLite file keeps every tuning run (space, options, machine) and every
// evaluation (configuration, status, time samples, QoS, message, input set).
// A run can be resumed from it and queried with any SQLite client:
//
//   runs(id, started, space, fingerprint, mode, seed, qos_min, workers,
//        command, machine)
//   evaluations(run, seq, input_set, technique, config, status, time, qos,
//               samples, message, detail, clock)
//
// `config` is `name=value,...` sorted by name; `samples` the repetition
// times, comma-separated; `detail` the per-input scores, `id score` lines;
// input_set is tuning, evaluation or calibration; `clock` the search's
// seconds when the evaluation was recorded (Evaluation::clock).
//
// A damaged store (a page SQLite finds corrupt, a row that does not decode)
// is an error on opening or reading, never a silent re-run: the file is
// left as it is for the user to move away or restore.
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

/// Resuming `run` of `space`: its stored tuning evaluations become
/// `options.prior` and `next` the sequence number the next stored
/// evaluation takes; false with `error` when the store cannot be read or a
/// stored configuration is not a point of `space`.
bool loadPrior(Store &store, const RunInfo &run, const Space &space,
               TuneOptions &options, size_t &next, std::string &error);

std::string formatConfig(const Config &config);
bool parseConfig(const std::string &text, Config &config);

/// One stored evaluation as SQLite returns its columns.
struct StoredRow {
  long long seq = 0;
  std::string technique, config, status;
  double time = 0, qos = 0;
  std::string samples, message, detail;
  double clock = 0;
};

/// Decodes a stored row into `e`; false with `error` (naming the column)
/// when one is malformed: an unparsable or empty configuration, an unknown
/// status, a time or QoS that is not a finite number, an unreadable sample
/// or per-input score.
bool decodeEvaluation(const StoredRow &row, Evaluation &e, std::string &error);

/// Problems of a stored configuration against `space` (empty: it is a
/// point of the space, every parameter named, as the search writes them).
std::string storedConfigProblem(const Space &space, const Config &config);

class Store {
public:
  /// Opens or creates the store; nullptr with `error` set on failure.
  static std::unique_ptr<Store> open(const std::string &path,
                                     std::string &error);
  ~Store();

  /// Starts a run (sets `run.id` and `run.started`).
  bool beginRun(RunInfo &run, std::string &error);
  /// The latest run with this fingerprint (none: `out` empty); false with
  /// `error` when the store cannot be read.
  bool lastRun(const std::string &fingerprint, std::optional<RunInfo> &out,
               std::string &error);
  bool runs(std::vector<RunInfo> &out, std::string &error);
  bool add(long run, InputSet set, const Evaluation &e, std::string &error);
  /// The file it was opened from, for messages.
  const std::string &name() const { return path; }
  /// A run's evaluations on one input set, in order; false with `error`
  /// (naming the row) when one cannot be read or decoded.
  bool evaluations(long run, InputSet set, std::vector<Evaluation> &out,
                   std::string &error);

private:
  Store(sqlite3 *db, std::string path) : db(db), path(std::move(path)) {}
  /// `error` for a failed read: the store's name and SQLite's reason.
  bool readFailed(std::string &error);
  sqlite3 *db;
  std::string path;
};

} // namespace approx::tune

#endif // APPROX_TUNER_STORE_H
