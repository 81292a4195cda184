//===- GreedyMutation.cpp - mutations of the best or a frontier point ------===//
#include "Technique.h"

#include <algorithm>
#include <cmath>

namespace approx::tune::search {
namespace {

/// Mutates the best point or a random frontier point (so the whole frontier
/// gets refined, not just the constrained optimum).
class GreedyMutation : public Technique {
public:
  explicit GreedyMutation(size_t d) : d(d) {}
  const char *name() const override { return "greedy-mutation"; }
  bool propose(Rng &rng, const Archive &archive, Point &x,
               long &tag) override {
    tag = 0;
    if (archive.best < 0) {
      x = randomPoint(rng, d);
      return true;
    }
    size_t parent = size_t(archive.best);
    if (!archive.frontier.empty() && rng.uniform() < 0.5)
      parent = archive.frontier[rng.below(archive.frontier.size())];
    x = archive.entries[parent].x;
    size_t forced = rng.below(d);
    for (size_t i = 0; i < d; ++i) {
      if (i != forced && rng.uniform() >= 1.0 / double(d))
        continue;
      x[i] = rng.uniform() < 0.5 ? clampUnit(x[i] + 0.15 * rng.normal())
                                 : rng.uniform();
    }
    return true;
  }
  void observe(long, const Point &, double) override {}

private:
  size_t d;
};

} // namespace

std::unique_ptr<Technique> makeGreedyMutation(size_t d) {
  return std::make_unique<GreedyMutation>(d);
}

} // namespace approx::tune::search
