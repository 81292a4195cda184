//===- ProfileTest.cpp - profiles, composition and start configurations -----===//
#include "SearchFixtures.h"
#include "approx/Tuner/Report.h"
#include "approx/Tuner/Search.h"
#include "approx/Tuner/Store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>

using namespace approx::tune;
using namespace approx::tune::testing;

namespace {

TEST(SearchTest, StartConfigurationsAreMeasuredFirstAndBuiltOn) {
  // The static optimum (both decisions equal, given as a start point) is
  // measured right after the baseline; the dynamic search, with few
  // evaluations, ends at least as good as it.
  Synthetic syn;
  Config staticBest;
  double staticTime = 1e9;
  enumerateSpace(syn.space, false, [&](const Config &c) {
    Measurement m = model(c, syn.knobs, syn.weights);
    if (m.qos >= 0.9 && m.time < staticTime) {
      staticTime = m.time;
      staticBest = c;
    }
    return true;
  });
  TuneOptions o;
  o.qosMin = 0.9;
  o.maxEvals = 20;
  o.start = {staticBest, staticBest};
  TuneResult r = tune(syn.space, syn.evaluator(), o);
  ASSERT_GE(r.evaluations.size(), 3u);
  EXPECT_EQ(r.evaluations[1].technique, "start");
  EXPECT_EQ(r.evaluations[1].config, staticBest);
  EXPECT_NE(r.evaluations[2].technique, "start"); // repeats are skipped
  ASSERT_GE(r.best, 0);
  EXPECT_LE(r.evaluations[size_t(r.best)].result.time, staticTime);
}

TEST(SearchTest, KnobsAloneThenStatesThenComposed) {
  // The ensemble is preceded by each knob alone at each value, then each
  // tree's states below a cut at its fastest value, with joint
  // configurations composed after each; a run is a prefix of the same
  // sequence whatever its budget.
  Synthetic syn;
  TuneOptions o;
  o.maxEvals = 80;
  o.seed = 2;
  TuneResult r = tune(syn.space, syn.evaluator(), o);
  ASSERT_EQ(r.evaluations.size(), 81u);
  Config exact = exactConfig(syn.space);
  auto differing = [&](const Config &c) {
    std::set<std::string> knobs;
    for (const auto &[name, value] : c)
      if (exact.at(name) != value)
        knobs.insert(name.substr(0, 1));
    return knobs;
  };
  // 2 knobs x 7 values alone, every decision of the tree equal.
  for (size_t i = 1; i <= 14; ++i) {
    const Evaluation &e = r.evaluations[i];
    EXPECT_EQ(e.technique, "knob-profile") << i;
    std::set<std::string> knobs = differing(e.config);
    ASSERT_EQ(knobs.size(), 1u) << i;
    std::string k = *knobs.begin();
    EXPECT_EQ(e.config.at(k + "_decision_0"), e.config.at(k + "_decision_1"));
    EXPECT_EQ(e.config.at(k + "_threshold_0"), exact.at(k + "_threshold_0"));
  }
  std::map<std::string, size_t> count;
  for (const Evaluation &e : r.evaluations)
    ++count[e.technique];
  EXPECT_GE(count["compose"], 1u);
  // Level 1 and 2 of the state profile: 3 + 4 cuts per tree.
  EXPECT_GE(count["state-profile"], 14u);
  for (const Evaluation &e : r.evaluations)
    if (e.technique == "state-profile") {
      std::set<std::string> knobs = differing(e.config);
      ASSERT_EQ(knobs.size(), 1u);
      std::string k = *knobs.begin();
      EXPECT_NE(e.config.at(k + "_decision_0"), 0);
      EXPECT_EQ(e.config.at(k + "_decision_1"), 0);
    }
  // The composed configurations beat every knob alone at the bound.
  double bestAlone = r.evaluations[0].result.time;
  for (size_t i = 1; i <= 14; ++i)
    if (r.evaluations[i].result.qos >= o.qosMin)
      bestAlone = std::min(bestAlone, r.evaluations[i].result.time);
  ASSERT_GE(r.best, 0);
  EXPECT_LT(r.evaluations[size_t(r.best)].result.time, bestAlone);
  // A shorter run is a prefix of this one.
  o.maxEvals = 30;
  TuneResult shorter = tune(syn.space, syn.evaluator(), o);
  for (size_t i = 0; i < shorter.evaluations.size(); ++i)
    EXPECT_EQ(shorter.evaluations[i].config, r.evaluations[i].config) << i;
}


} // namespace
