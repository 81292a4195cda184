//===- Phases.h - the search's phases over the measured run ----*- C++ -*-===//
//
// Each phase appends to the measured run (Run.h) and depends on nothing
// else of the search; the driver (lib/Tuner/Search.cpp) orders them:
// enumeration for small spaces; else the annotation's defaults, the knob
// profiles, the composition, the state profiles level by level (each
// composed again), then the ensemble of techniques until the budget ends.
// Every phase plans without regard to the budget, so a run's evaluations
// are a prefix of one sequence whatever its budget (resume and extension
// are exact). Internal to the search (lib/Tuner/Search).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SEARCH_PHASES_H
#define APPROX_TUNER_SEARCH_PHASES_H

#include "Compose.h"
#include "Run.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace approx::tune::search {

/// What the profiles learn, for the composition.
struct Profiles {
  /// The options of each knob the composer chooses among.
  Composer composer;
  /// Per knob: value -> (time ratio, loss) of the knob alone at it.
  std::vector<std::map<int64_t, std::pair<double, double>>> staticEffect;
  /// Per knob: the knob's static options (its values alone, measured).
  std::vector<std::vector<KnobOption>> staticOptions;
  /// Options kept per knob (the Pareto-best).
  static constexpr size_t kMaxOptions = 24;
  /// State-profile levels: up to 2^(kStateLevels+1) - 1 = 31 cuts.
  static constexpr int kStateLevels = 4;
};

/// Profile.cpp: each knob alone at each of its values, the others exact;
/// orders each knob's values by speed-up (run.valueOrder) and gives the
/// composer its options.
void profileKnobs(Run &run, Profiles &profiles);
/// Profile.cpp: the state profile of each decision tree at a level of
/// detail; each tree's predicted frontier becomes its composer options.
/// False when the level adds nothing.
bool profileStates(Run &run, Profiles &profiles, int level);
/// Composition.cpp: the joint configurations the profiles predict fastest
/// within the bound, measured a batch at a time, the model's loss scale
/// corrected by each.
void composeKnobs(Run &run, Profiles &profiles);
/// Ensemble.cpp: the techniques, chosen by the bandit, until the budget
/// ends or no new configuration is proposed.
void runEnsemble(Run &run);
/// Exhaustive.cpp: every configuration once (shuffled under a time
/// budget).
void runExhaustive(Run &run);

} // namespace approx::tune::search

#endif // APPROX_TUNER_SEARCH_PHASES_H
