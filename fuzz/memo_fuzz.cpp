//===- memo_fuzz.cpp - libFuzzer target: memo-cache entries --------------===//
// Any bytes as a memo-cache entry file (APPROX_LLM_CACHE): parseMemoEntry
// accepts it only with every length and statistic in range, else it is a
// miss; no exception, no read past the bytes.
#include "memo_cache.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  approx::llm::MemoEntry e;
  for (const char *key : {"allm-v2|fuzz", ""})
    if (approx::llm::parseMemoEntry(bytes, key, e)) {
      const allm_stats &s = e.stats;
      if (e.text.size() > bytes.size() || s.prompt_tokens < 0 ||
          s.generated_tokens < 0 || !std::isfinite(s.prompt_seconds) ||
          s.prompt_seconds < 0 || !std::isfinite(s.generate_seconds) ||
          s.generate_seconds < 0 || !(s.first_token_prob >= 0 && s.first_token_prob <= 1))
        std::abort();
    }
  return 0;
}
