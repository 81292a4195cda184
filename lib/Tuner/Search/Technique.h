//===- Technique.h - a search technique, and the ensemble's five -*- C++ -*-===//
//
// Each technique proposes points and is told their scores (lower is
// better); `propose` returns false while it waits for a result. The
// ensemble (Ensemble.cpp) chooses among them with the bandit (Bandit.h).
// One file per technique. Internal to the search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_TECHNIQUE_H
#define APPROX_TUNER_SEARCH_TECHNIQUE_H

#include "Archive.h"
#include "Encoding.h"
#include "Rng.h"

#include <memory>
#include <vector>

namespace approx::tune::search {

class Technique {
public:
  virtual ~Technique() = default;
  virtual const char *name() const = 0;
  virtual bool propose(Rng &rng, const Archive &archive, Point &x,
                       long &tag) = 0;
  virtual void observe(long tag, const Point &x, double score) = 0;
};

inline Point randomPoint(Rng &rng, size_t d) {
  Point x(d);
  for (double &v : x)
    v = rng.uniform();
  return x;
}

/// Each knob's values from exact to most aggressive: 0 first, then the
/// values measured alone in ascending speed-up (the knob profile), then
/// values not measured, in their own order.
using ValueOrder = std::vector<std::vector<int64_t>>;

/// The ensemble's techniques, on `d` dimensions (KnobLocal.cpp: the knobs'
/// own terms, reading `order` as the knob profile updates it).
std::unique_ptr<Technique> makeRandomSearch(size_t d);
std::unique_ptr<Technique> makeGreedyMutation(size_t d);
std::unique_ptr<Technique> makeDifferentialEvolution(size_t d);
std::unique_ptr<Technique> makeNelderMead(size_t d);
std::unique_ptr<Technique> makeKnobLocal(const Space &space, const Encoding &encoding,
                                         bool dynamic, const ValueOrder &order);

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_TECHNIQUE_H
