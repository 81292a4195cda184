//===- Compose.h - per-knob profiles composed into joint configurations ---===//
//
// Knobs are separate regions of a program, often nearly independent: the
// effect of a joint configuration is close to the composition of each
// knob's effect alone. The search measures every knob alone at each of its
// values (the others exact), then proposes the joint configurations that
// this model predicts fastest within the QoS bound: time composes as a
// product of per-knob time ratios, losses add, scaled by a correction the
// search learns from the joint configurations it measures (interactions).
// Internal to the search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_COMPOSE_H
#define APPROX_TUNER_SEARCH_COMPOSE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <set>
#include <vector>

namespace approx::tune {

/// One setting of one knob (its parameters; empty: exact) with its time
/// ratio to the exact configuration and QoS loss (exact QoS minus
/// measured, at least 0), measured alone or predicted.
struct KnobOption {
  std::map<std::string, int64_t> settings;
  double timeRatio = 1, loss = 0;
};

/// The options no other option beats in both time and loss, in ascending
/// time, thinned evenly to at most `keep` (the exact option is kept first).
std::vector<KnobOption> paretoOptions(std::vector<KnobOption> options,
                                      size_t keep);

/// The composition model over each knob's options ([0] must be the exact
/// value 0 with ratio 1 and loss 0).
struct Composer {
  std::vector<std::vector<KnobOption>> options; // per knob
  double lossScale = 1;                          // learnt correction

  double predictTime(const std::vector<size_t> &pick) const;
  double predictLoss(const std::vector<size_t> &pick) const;

  /// The pick (an option index per knob) with the least predicted time
  /// whose predicted loss is within `allowedLoss`, among those not in
  /// `exclude` and not all exact; empty when there is none. Depth-first
  /// with pruning on loss, visiting at most `maxNodes` partial picks.
  std::vector<size_t> best(double allowedLoss,
                           const std::set<std::vector<size_t>> &exclude,
                           size_t maxNodes = 2000000) const;
};

} // namespace approx::tune

#endif // APPROX_TUNER_SEARCH_COMPOSE_H
