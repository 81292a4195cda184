//===- RandomSearch.cpp - uniform random points ----------------------------===//
#include "Technique.h"

#include <algorithm>
#include <cmath>

namespace approx::tune::search {
namespace {

class RandomSearch : public Technique {
public:
  explicit RandomSearch(size_t d) : d(d) {}
  const char *name() const override { return "random"; }
  bool propose(Rng &rng, const Archive &, Point &x, long &tag) override {
    x = randomPoint(rng, d);
    tag = 0;
    return true;
  }
  void observe(long, const Point &, double) override {}

private:
  size_t d;
};

} // namespace

std::unique_ptr<Technique> makeRandomSearch(size_t d) {
  return std::make_unique<RandomSearch>(d);
}

} // namespace approx::tune::search
