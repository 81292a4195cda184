//===- Rng.h - the search's randomness and its unit cube --------*- C++ -*-===//
//
// One seeded generator, distributions written out so that a seed means the
// same run with any standard library; points of the unit cube every
// technique proposes (Encoding.h maps them to configurations). Internal to
// the search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_RNG_H
#define APPROX_TUNER_SEARCH_RNG_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace approx::tune::search {

struct Rng {
  std::mt19937_64 engine;
  explicit Rng(uint64_t seed) : engine(seed) {}
  double uniform() { return double(engine() >> 11) * 0x1.0p-53; }
  size_t below(size_t n) { return size_t(uniform() * double(n)) % n; }
  double normal() {
    double u = std::max(uniform(), 1e-300), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
  }
};

using Point = std::vector<double>; // a point of the unit cube

inline double clampUnit(double v) {
  if (v < 0)
    v = -v; // reflect
  if (v > 1)
    v = 2 - v;
  return std::min(1.0, std::max(0.0, v));
}

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_RNG_H
