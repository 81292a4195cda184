//===- runtime_config_fuzz.cpp - libFuzzer target: configuration files ---===//
// Any bytes as a configuration file: the runtime's reader (shared with the
// tuner) accepts it or fails with a message naming the file and a line.
#include "approx_runtime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int fd = memfd_create("config", 0);
  if (fd < 0 || write(fd, data, size) != ssize_t(size))
    std::abort();
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  approx_rt_entry *entries = nullptr;
  size_t count = 0;
  if (approx_rt_read_config(path.c_str(), &entries, &count) == 0) {
    for (size_t i = 0; i < count; ++i)
      if (!entries[i].name)
        std::abort();
    approx_rt_free_config(entries, count);
  } else if (std::strncmp(approx_rt_last_error(), path.c_str(),
                          path.size()) != 0) {
    std::abort(); // every error names the file
  }
  close(fd);
  return 0;
}
