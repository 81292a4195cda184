//===- DifferentialEvolution.cpp - DE/rand/1/bin ---------------------------===//
#include "Technique.h"

#include <algorithm>
#include <cmath>

namespace approx::tune::search {
namespace {

/// Differential evolution, DE/rand/1/bin (F = 0.5, CR = 0.9).
class DifferentialEvolution : public Technique {
public:
  explicit DifferentialEvolution(size_t d)
      : d(d), pop(std::clamp<size_t>(2 * d, 8, 20)) {}
  const char *name() const override { return "differential-evolution"; }

  bool propose(Rng &rng, const Archive &, Point &x, long &tag) override {
    for (size_t i = 0; i < pop.size(); ++i)
      if (!pop[i].ready && !pop[i].pending) {
        pop[i].pending = true;
        x = randomPoint(rng, d);
        tag = long(i);
        return true;
      }
    std::vector<size_t> ready;
    for (size_t i = 0; i < pop.size(); ++i)
      if (pop[i].ready)
        ready.push_back(i);
    if (ready.size() < 4)
      return false;
    for (size_t tries = 0; tries < pop.size(); ++tries) {
      size_t i = next++ % pop.size();
      if (!pop[i].ready || pop[i].pending)
        continue;
      size_t r[3];
      for (size_t k = 0; k < 3; ++k) {
        do
          r[k] = ready[rng.below(ready.size())];
        while (r[k] == i || (k > 0 && r[k] == r[0]) || (k > 1 && r[k] == r[1]));
      }
      size_t jrand = rng.below(d);
      x = pop[i].x;
      for (size_t j = 0; j < d; ++j)
        if (j == jrand || rng.uniform() < 0.9)
          x[j] = clampUnit(pop[r[0]].x[j] +
                           0.5 * (pop[r[1]].x[j] - pop[r[2]].x[j]));
      pop[i].pending = true;
      tag = long(i);
      return true;
    }
    return false;
  }

  void observe(long tag, const Point &x, double score) override {
    Member &m = pop[size_t(tag)];
    m.pending = false;
    if (!m.ready || score <= m.score) {
      m.x = x;
      m.score = score;
      m.ready = true;
    }
  }

private:
  struct Member {
    Point x;
    double score = 0;
    bool ready = false, pending = false;
  };
  size_t d;
  std::vector<Member> pop;
  size_t next = 0;
};

} // namespace

std::unique_ptr<Technique> makeDifferentialEvolution(size_t d) {
  return std::make_unique<DifferentialEvolution>(d);
}

} // namespace approx::tune::search
