//===- Archive.h - every point measured, as the techniques see it -*- C++ -*-===//
//
// The archive every technique sees: all points measured so far, their
// scores (lower is better), the best and those on the time/QoS frontier.
// Internal to the search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_ARCHIVE_H
#define APPROX_TUNER_SEARCH_ARCHIVE_H

#include "Rng.h"

#include <cstddef>
#include <vector>

namespace approx::tune::search {

struct Archive {
  struct Entry {
    Point x;
    double score;
  };
  std::vector<Entry> entries;
  std::vector<size_t> frontier; // entries on the time/QoS frontier
  long best = -1;               // lowest score

  void add(const Point &x, double score) {
    entries.push_back({x, score});
    if (best < 0 || score < entries[size_t(best)].score)
      best = long(entries.size() - 1);
  }
};

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_ARCHIVE_H
