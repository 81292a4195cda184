//===- memo_cache.h - memoised generations on disk --------------*- C++ -*-===//
//
// One file per (model, prompt, parameters) key in a directory: the full key
// (checked on lookup, so a hash collision is a miss), the generated text and
// the statistics measured when it was generated. Files are written to a
// temporary name and renamed, so concurrent tuning workers never read a
// half-written entry.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_LLM_MEMO_CACHE_H
#define APPROX_LLM_MEMO_CACHE_H

#include "approx_llm.h"

#include <string>

namespace approx::llm {

struct MemoEntry {
  std::string text;
  allm_stats stats;
};

/// True and `entry` filled when `bytes` (a whole entry file) is a
/// well-formed entry for exactly `key`: every length within the file, every
/// statistic finite and non-negative. Anything else (a damaged or foreign
/// file) is false, a miss.
bool parseMemoEntry(const std::string &bytes, const std::string &key, MemoEntry &entry);

/// True and `entry` filled when `dir` holds an entry for exactly `key`.
bool memoLookup(const std::string &dir, const std::string &key, MemoEntry &entry);

/// Stores `entry` under `key`; failures are ignored (the cache is an
/// optimisation: a later lookup misses and generates again).
void memoStore(const std::string &dir, const std::string &key, const MemoEntry &entry);

} // namespace approx::llm

#endif
