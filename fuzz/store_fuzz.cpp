//===- store_fuzz.cpp - libFuzzer target: the results store reader --------===//
// Any bytes as a results store file: opening it either fails with a message
// or every read (runs, their evaluations, the latest run) returns.
#include "approx/Tuner/Store.h"

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
    for (const approx::tune::RunInfo &run : store->runs()) {
      store->evaluations(run.id, approx::tune::InputSet::Tuning);
      store->evaluations(run.id, approx::tune::InputSet::Evaluation);
      store->lastRun(run.fingerprint);
    }
  } else if (error.empty()) {
    std::abort();
  }
  unlink(path);
  for (const char *suffix : {"-journal", "-wal", "-shm"})
    unlink((std::string(path) + suffix).c_str());
  return 0;
}
