//===- gguf_fuzz.cpp - libFuzzer target: model files through the engine --===//
// Any bytes as a GGUF model file, loaded through the LLM engine's load path
// (allm_load: its own checks, then llama.cpp's loader): it loads, or fails
// with a message naming the file; no crash, no abort.
#include "approx_llm.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/approx-gguf-fuzz-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, data, size) != ssize_t(size))
    std::abort();
  close(fd);
  allm_load_params p = allm_load_defaults();
  p.n_ctx = 64;
  p.n_threads = 1;
  for (int embeddings : {0, 1}) {
    p.embeddings = embeddings;
    p.truncate = embeddings;
    if (allm_model *m = allm_load(path, &p))
      allm_free(m);
    else if (!std::strstr(allm_last_error(), path))
      std::abort(); // every error names the file
  }
  unlink(path);
  return 0;
}
