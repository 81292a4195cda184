//===- NelderMead.cpp - Nelder-Mead on the unit cube -----------------------===//
#include "Technique.h"

#include <algorithm>
#include <cmath>

namespace approx::tune::search {
namespace {

/// Nelder-Mead on the unit cube, one point at a time, restarted around a
/// random archive point when the simplex collapses.
class NelderMead : public Technique {
public:
  explicit NelderMead(size_t d) : d(d) {}
  const char *name() const override { return "nelder-mead"; }

  bool propose(Rng &rng, const Archive &archive, Point &x,
               long &tag) override {
    if (pending)
      return false;
    tag = 0;
    if (state == State::Start)
      restart(rng, archive);
    switch (state) {
    case State::Start:
    case State::Init:
      x = simplex[initIndex].x;
      break;
    case State::Reflect:
      centroidAndWorst();
      x = along(-1.0); // reflection: c + (c - worst)
      reflected = x;
      break;
    case State::Expand:
      x = along(-2.0);
      break;
    case State::Contract:
      x = along(reflectScore < simplex.back().score ? -0.5 : 0.5);
      break;
    case State::Shrink:
      x = simplex[shrinkIndex].x;
      break;
    }
    pending = true;
    return true;
  }

  void observe(long, const Point &x, double score) override {
    pending = false;
    switch (state) {
    case State::Start:
    case State::Init:
      simplex[initIndex].score = score;
      if (++initIndex == simplex.size())
        beginIteration();
      return;
    case State::Reflect:
      reflectScore = score;
      if (score < simplex.front().score) {
        state = State::Expand;
      } else if (score < simplex[simplex.size() - 2].score) {
        replaceWorst(x, score);
      } else {
        state = State::Contract;
      }
      return;
    case State::Expand:
      if (score < reflectScore)
        replaceWorst(x, score);
      else
        replaceWorst(reflected, reflectScore);
      return;
    case State::Contract:
      if (score < std::min(reflectScore, simplex.back().score)) {
        replaceWorst(x, score);
        return;
      }
      for (size_t i = 1; i < simplex.size(); ++i)
        for (size_t j = 0; j < d; ++j)
          simplex[i].x[j] = simplex[0].x[j] +
                            0.5 * (simplex[i].x[j] - simplex[0].x[j]);
      state = State::Shrink;
      shrinkIndex = 1;
      return;
    case State::Shrink:
      simplex[shrinkIndex].score = score;
      if (++shrinkIndex == simplex.size())
        beginIteration();
      return;
    }
  }

private:
  enum class State { Start, Init, Reflect, Expand, Contract, Shrink };
  struct Vertex {
    Point x;
    double score = 0;
  };

  void restart(Rng &rng, const Archive &archive) {
    Point base = archive.entries.empty()
                     ? randomPoint(rng, d)
                     : archive.entries[rng.below(archive.entries.size())].x;
    simplex.assign(1, {base, 0});
    for (size_t i = 0; i < d; ++i) {
      Point v = base;
      v[i] = v[i] + 0.25 <= 1 ? v[i] + 0.25 : v[i] - 0.25;
      simplex.push_back({v, 0});
    }
    initIndex = 0;
    state = State::Init;
  }

  void beginIteration() {
    std::stable_sort(simplex.begin(), simplex.end(),
                     [](const Vertex &a, const Vertex &b) {
                       return a.score < b.score;
                     });
    double size = 0;
    for (size_t i = 1; i < simplex.size(); ++i)
      for (size_t j = 0; j < d; ++j)
        size = std::max(size, std::abs(simplex[i].x[j] - simplex[0].x[j]));
    state = size < 1e-3 ? State::Start : State::Reflect;
  }

  void centroidAndWorst() {
    centroid.assign(d, 0);
    for (size_t i = 0; i + 1 < simplex.size(); ++i)
      for (size_t j = 0; j < d; ++j)
        centroid[j] += simplex[i].x[j] / double(simplex.size() - 1);
  }

  /// centroid + t * (worst - centroid), clamped to the cube.
  Point along(double t) const {
    Point x(d);
    for (size_t j = 0; j < d; ++j)
      x[j] = std::min(1.0, std::max(0.0, centroid[j] +
                                             t * (simplex.back().x[j] -
                                                  centroid[j])));
    return x;
  }

  void replaceWorst(const Point &x, double score) {
    simplex.back() = {x, score};
    beginIteration();
  }

  size_t d;
  State state = State::Start;
  std::vector<Vertex> simplex;
  Point centroid, reflected;
  double reflectScore = 0;
  size_t initIndex = 0, shrinkIndex = 0;
  bool pending = false;
};

} // namespace

std::unique_ptr<Technique> makeNelderMead(size_t d) {
  return std::make_unique<NelderMead>(d);
}

} // namespace approx::tune::search
