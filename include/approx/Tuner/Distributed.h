//===- Distributed.h - a tuning run's evaluations over MPI ------*- C++ -*-===//
//
// One tuning run, its evaluations spread over the ranks of an MPI job
// (Open MPI; `mpirun -np N+1 approx-tune --mpi ...`): rank 0 runs the
// search and keeps the results store, the single record of the run; ranks
// 1..N measure configurations with the command evaluator (Evaluator.h),
// each request carrying its command options. The search proposes batches of
// a fixed size (--batch) whatever the number of workers, so a run with the
// same seed and deterministic evaluations is the same run on 1 or N workers.
//
// Failures: a worker sends a heartbeat every second while it measures; one
// silent for `lostAfterSeconds` is lost, and its evaluation goes to another
// worker (at most 3 tries), so a dying worker costs the time of that
// evaluation and nothing else (when mpirun keeps the job going: --mca
// orte_abort_on_non_zero_status 0; by default it ends the job, and --resume
// continues from the store). With no worker left the coordinator stops
// (every finished evaluation is already in the store; --resume continues).
// A worker that hears nothing from the coordinator for 30 s (it pings idle
// workers every 5 s) exits.
//
// Built when CMake finds MPI (Debian: libopenmpi-dev); `available()` says.
// No MPI header here.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_DISTRIBUTED_H
#define APPROX_TUNER_DISTRIBUTED_H

#include "approx/Tuner/Evaluator.h"

#include <memory>

namespace approx::tune::distributed {

/// True when this build has MPI.
bool available();

/// MPI_Init (threads: serialized, MPI is called from one thread at a time
/// in each process); the rank of this process and the number of ranks.
struct World {
  int rank = 0, size = 1;
};
World init(int &argc, char **&argv);
void finalize();
/// Ends the whole job with exit status `code` (MPI_Abort), for rank 0 once
/// its work is done when a worker was lost: after a rank was killed, Open
/// MPI 4.1's mpirun waits forever for the job to finalize.
[[noreturn]] void abortJob(int code);

/// Ranks > 0: measures what the coordinator sends until it says stop (or
/// falls silent). Returns the process's exit status.
int serveWorker();

/// Rank 0: hands evaluations to the worker ranks.
class Coordinator {
public:
  struct Options {
    double lostAfterSeconds = 10;
    /// Called (from the dispatching thread) when no worker is left; the
    /// default prints nothing and leaves the evaluations failed.
    std::function<void()> onAllLost;
    /// Told about each lost worker (rank, what it was measuring).
    std::function<void(int, const std::string &)> onWorkerLost;
  };
  Coordinator(World world, Options options);
  ~Coordinator(); // stops the workers
  Coordinator(const Coordinator &) = delete;
  Coordinator &operator=(const Coordinator &) = delete;

  /// An evaluator that runs `command` (with its options) on a free worker;
  /// safe to call from several threads (each call waits for its result).
  EvaluateFn evaluator(const CommandOptions &command);

  /// Workers still alive.
  unsigned liveWorkers() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace approx::tune::distributed

#endif // APPROX_TUNER_DISTRIBUTED_H
