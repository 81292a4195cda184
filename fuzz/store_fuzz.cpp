//===- store_fuzz.cpp - libFuzzer target: the results store reader --------===//
// Any bytes as a results store file: opening it either fails with a message
// or every read (runs, their evaluations, the latest run) returns, with a
// message when it fails; every evaluation read back decodes to finite
// numbers.
#include "approx/Tuner/Store.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/approx-store-fuzz-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, data, size) != ssize_t(size))
    std::abort();
  close(fd);
  std::string error;
  if (auto store = approx::tune::Store::open(path, error)) {
    std::vector<approx::tune::RunInfo> runs;
    if (!store->runs(runs, error) && error.empty())
      std::abort();
    for (const approx::tune::RunInfo &run : runs) {
      for (approx::tune::InputSet set :
           {approx::tune::InputSet::Tuning, approx::tune::InputSet::Evaluation,
            approx::tune::InputSet::Calibration}) {
        std::vector<approx::tune::Evaluation> evaluations;
        error.clear();
        if (!store->evaluations(run.id, set, evaluations, error) && error.empty())
          std::abort();
        for (const approx::tune::Evaluation &e : evaluations)
          if (!std::isfinite(e.result.time) || !std::isfinite(e.result.qos) ||
              e.config.empty())
            std::abort();
      }
      std::optional<approx::tune::RunInfo> last;
      error.clear();
      if (!store->lastRun(run.fingerprint, last, error) && error.empty())
        std::abort();
    }
  } else if (error.empty()) {
    std::abort();
  }
  unlink(path);
  for (const char *suffix : {"-journal", "-wal", "-shm"})
    unlink((std::string(path) + suffix).c_str());
  return 0;
}
