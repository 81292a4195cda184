//===- SearchFixtures.h - spaces and models the search tests share -*- C++ -*-===//
#ifndef APPROX_UNITTESTS_TUNER_SEARCHFIXTURES_H
#define APPROX_UNITTESTS_TUNER_SEARCHFIXTURES_H

#include "approx/Tuner/Search.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

namespace approx::tune::testing {

/// A decision-tree knob `name` with `t` thresholds in [0, hi] and decisions
/// over `values`.
inline void addTree(Space &s, const std::string &name, unsigned t, int64_t hi,
             std::vector<int64_t> values) {
  KnobParams k{name, name, "loop_perforate", true, {}, {}, 0};
  for (unsigned i = 0; i < t; ++i) {
    s.params.push_back({name + "_threshold_" + std::to_string(i), 0, hi,
                        int64_t(i), ParamKind::Threshold, name, name, i, {}});
    k.thresholds.push_back(s.params.size() - 1);
  }
  for (unsigned j = 0; j <= t; ++j) {
    s.params.push_back({name + "_decision_" + std::to_string(j), values.front(),
                        values.back(), 0, ParamKind::Decision, name, name, j,
                        values});
    k.decisions.push_back(s.params.size() - 1);
  }
  s.knobs.push_back(k);
}

/// A model of dynamic knobs: the state is uniform over [0, 50); below the
/// threshold decision 0 applies, above it decision 1. Decision d makes the
/// knob's work 1/(1+d) as long and loses weight*d^2 of QoS.
inline Measurement model(const Config &c, const std::vector<std::string> &knobs,
                  const std::vector<double> &weights) {
  double time = 0, loss = 0;
  for (size_t k = 0; k < knobs.size(); ++k) {
    double below = double(c.at(knobs[k] + "_threshold_0")) / 50;
    double d0 = double(c.at(knobs[k] + "_decision_0"));
    double d1 = double(c.at(knobs[k] + "_decision_1"));
    time += below / (1 + d0) + (1 - below) / (1 + d1);
    loss += weights[k] * (below * d0 * d0 + (1 - below) * d1 * d1);
  }
  Measurement m;
  m.time = time;
  m.qos = std::max(0.0, 1 - loss);
  m.samples = {time};
  return m;
}

struct Synthetic {
  Space space;
  std::vector<std::string> knobs = {"a", "b"};
  std::vector<double> weights = {0.004, 0.001};
  Synthetic() {
    for (const std::string &k : knobs)
      addTree(space, k, 1, 49, {0, 1, 2, 3, 4, 5, 6, 7});
  }
  EvaluateFn evaluator(std::atomic<int> *calls = nullptr) const {
    return [this, calls](const Config &c, InputSet) {
      if (calls)
        ++*calls;
      return model(c, knobs, weights);
    };
  }
};

/// One tree knob with 4 thresholds and 4 decision values: 64 dynamic
/// configurations.
struct SmallTree {
  Space space;
  EvaluateFn eval = [](const Config &c, InputSet) {
    return model(c, {"f"}, {0.01});
  };
  SmallTree() { addTree(space, "f", 1, 3, {0, 1, 2, 3}); }
};

inline std::vector<Config> configs(const TuneResult &r) {
  std::vector<Config> out;
  for (const Evaluation &e : r.evaluations)
    out.push_back(e.config);
  return out;
}

} // namespace approx::tune::testing

#endif // APPROX_UNITTESTS_TUNER_SEARCHFIXTURES_H
