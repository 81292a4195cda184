//===- memo_cache.cpp - memoised generations on disk ----------------------===//
#include "memo_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include "approx_files.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <vector>

namespace approx::llm {
namespace {

uint64_t fnv1a(const std::string &s, uint64_t h) {
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string entryPath(const std::string &dir, const std::string &key) {
  char name[40];
  snprintf(name, sizeof name, "%016llx%016llx.memo",
           (unsigned long long)fnv1a(key, 14695981039346656037ull),
           (unsigned long long)fnv1a(key, 0x9E3779B97F4A7C15ull));
  return dir + "/" + name;
}

// The largest entry file read (a prompt and a text far smaller).
constexpr size_t kMaxEntryBytes = 64 << 20;

bool finiteNonNegative(double x) { return std::isfinite(x) && x >= 0; }

} // namespace

bool parseMemoEntry(const std::string &bytes, const std::string &key, MemoEntry &entry) {
  allm_stats &s = entry.stats;
  s = allm_stats{};
  entry.text.clear();
  size_t keyLen = 0, textLen = 0;
  int used = 0;
  // The header's numbers, then the key and the text, exactly their lengths.
  if (sscanf(bytes.c_str(), "allm-memo 3\n%d %d %d %lf %lf %lf\n%zu %zu\n%n", &s.prompt_tokens,
             &s.reused_tokens, &s.generated_tokens, &s.prompt_seconds, &s.generate_seconds,
             &s.first_token_prob, &keyLen, &textLen, &used) != 8 ||
      used <= 0)
    return false;
  size_t rest = bytes.size() - (size_t)used;
  if (s.prompt_tokens < 0 || s.reused_tokens < 0 || s.generated_tokens < 0 ||
      !finiteNonNegative(s.prompt_seconds) || !finiteNonNegative(s.generate_seconds) ||
      !finiteNonNegative(s.first_token_prob) || s.first_token_prob > 1 || keyLen != key.size() ||
      keyLen > rest || textLen != rest - keyLen ||
      bytes.compare((size_t)used, keyLen, key) != 0)
    return false;
  entry.text = bytes.substr((size_t)used + keyLen);
  return entry.text.find('\0') == std::string::npos;
}

bool memoLookup(const std::string &dir, const std::string &key, MemoEntry &entry) {
  char why[APPROX_WHY_SIZE];
  size_t len = 0;
  char *buf = approx_read_file(entryPath(dir, key).c_str(), kMaxEntryBytes, &len, why);
  if (!buf)
    return false; // a miss: absent, unreadable or too large
  std::string bytes(buf, len);
  free(buf);
  return parseMemoEntry(bytes, key, entry);
}

void memoStore(const std::string &dir, const std::string &key, const MemoEntry &entry) {
  mkdir(dir.c_str(), 0777);
  std::string path = entryPath(dir, key);
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE *f = fopen(tmp.c_str(), "wb");
  if (!f)
    return;
  const allm_stats &s = entry.stats;
  bool ok = fprintf(f, "allm-memo 3\n%d %d %d %.17g %.17g %.17g\n%zu %zu\n",
                    s.prompt_tokens, s.reused_tokens, s.generated_tokens, s.prompt_seconds,
                    s.generate_seconds, s.first_token_prob, key.size(),
                    entry.text.size()) > 0 &&
            fwrite(key.data(), 1, key.size(), f) == key.size() &&
            fwrite(entry.text.data(), 1, entry.text.size(), f) == entry.text.size();
  ok = fclose(f) == 0 && ok;
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0)
    unlink(tmp.c_str());
}

} // namespace approx::llm
