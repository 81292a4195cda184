//===- memo_cache.cpp - memoised generations on disk ----------------------===//
#include "memo_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
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

bool readExact(FILE *f, size_t n, std::string &out) {
  out.resize(n);
  return n == 0 || fread(&out[0], 1, n, f) == n;
}

} // namespace

bool memoLookup(const std::string &dir, const std::string &key, MemoEntry &entry) {
  FILE *f = fopen(entryPath(dir, key).c_str(), "rb");
  if (!f)
    return false;
  allm_stats &s = entry.stats;
  s = allm_stats{};
  size_t keyLen = 0, textLen = 0;
  std::string stored;
  bool ok = fscanf(f, "allm-memo 3\n%d %d %d %lf %lf %lf\n%zu %zu\n", &s.prompt_tokens,
                   &s.reused_tokens, &s.generated_tokens, &s.prompt_seconds,
                   &s.generate_seconds, &s.first_token_prob, &keyLen, &textLen) == 8 &&
            keyLen == key.size() && readExact(f, keyLen, stored) && stored == key &&
            readExact(f, textLen, entry.text);
  fclose(f);
  return ok;
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
