//===- Bandit.h - which technique proposes next -----------------*- C++ -*-===//
//
// Internal to the search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_BANDIT_H
#define APPROX_TUNER_SEARCH_BANDIT_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace approx::tune::search {

/// Chooses the technique for the next point by upper confidence bound over
/// a sliding window of credits (1 when a point improved the best score or
/// joined the feasible frontier), as OpenTuner's AUC bandit does.
class Bandit {
public:
  explicit Bandit(size_t arms) : arms(arms) {}

  /// Arms in order of preference.
  std::vector<size_t> ranking() const {
    std::vector<double> uses(arms, 0), credit(arms, 0);
    for (auto [arm, c] : window) {
      uses[arm] += 1;
      credit[arm] += c;
    }
    double total = double(window.size());
    std::vector<std::pair<double, size_t>> scored;
    for (size_t a = 0; a < arms; ++a) {
      double value = uses[a] == 0
                         ? std::numeric_limits<double>::infinity()
                         : credit[a] / uses[a] +
                               0.5 * std::sqrt(2 * std::log(total) / uses[a]);
      scored.push_back({-value, a});
    }
    std::stable_sort(scored.begin(), scored.end());
    std::vector<size_t> order;
    for (auto [v, a] : scored)
      order.push_back(a);
    return order;
  }

  void reward(size_t arm, double credit) {
    window.push_back({arm, credit});
    if (window.size() > 500)
      window.erase(window.begin());
  }

private:
  size_t arms;
  std::vector<std::pair<size_t, double>> window;
};

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_BANDIT_H
