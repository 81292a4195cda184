//===- ExhaustiveTest.cpp - enumeration of small spaces (Search/Exhaustive.cpp) ---===//
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

TEST(SearchTest, ExhaustiveFindsTheOptimumOfASmallSpace) {
  SmallTree t;
  const Space &s = t.space;
  const EvaluateFn &eval = t.eval;
  // Brute force: the fastest configuration with QoS >= 0.95.
  double bestTime = 1e9;
  std::set<Config> representatives;
  enumerateSpace(s, true, [&](const Config &c) {
    representatives.insert(s.canonical(c, true));
    Measurement m = eval(c, InputSet::Tuning);
    if (m.qos >= 0.95)
      bestTime = std::min(bestTime, m.time);
    return true;
  });
  // 4 thresholds x 12 unequal decision pairs, and 4 equal pairs, whose
  // threshold separates nothing.
  size_t count = representatives.size();
  EXPECT_EQ(count, 4u * 12 + 4);
  EXPECT_EQ(double(count), s.size(true));
  TuneOptions o;
  o.qosMin = 0.95;
  o.maxEvals = 100;
  TuneResult r = tune(s, eval, o);
  EXPECT_TRUE(r.exhaustive);
  ASSERT_GE(r.best, 0);
  EXPECT_DOUBLE_EQ(r.evaluations[size_t(r.best)].result.time, bestTime);
  // Every configuration that runs different code once (the exact one is
  // also the baseline).
  EXPECT_EQ(r.evaluations.size(), count);
}

TEST(SearchTest, ASpaceJustAboveTheBudgetUsesTheWholeBudget) {
  // 125 static configurations, 100 evaluations: the ensemble must keep
  // finding new ones (techniques that converge are charged for repeats).
  Space s;
  for (const char *k : {"a", "b", "c"})
    addTree(s, k, 1, 49, {0, 1, 2, 3, 4});
  EvaluateFn eval = [](const Config &c, InputSet) {
    Measurement m;
    double d = double(c.at("a_decision_0") + c.at("b_decision_0") + c.at("c_decision_0"));
    m.time = 1 / (1 + d);
    m.qos = 1 - 0.01 * d;
    return m;
  };
  TuneOptions o;
  o.dynamic = false;
  o.maxEvals = 100;
  for (uint64_t seed : {1, 2, 3}) {
    o.seed = seed;
    TuneResult r = tune(s, eval, o);
    EXPECT_FALSE(r.exhaustive);
    EXPECT_EQ(r.stopReason, "evaluation budget reached") << "seed " << seed;
    EXPECT_EQ(r.evaluations.size(), 101u);
  }
}

TEST(SearchTest, ExhaustiveUnderATimeBudgetShufflesItsOrder) {
  // A budget that runs out must leave a sample of the whole space, not its
  // first corner in enumeration order; the order is still seeded.
  SmallTree t;
  const Space &s = t.space;
  const EvaluateFn &eval = t.eval;
  std::vector<Config> order; // representatives
  enumerateSpace(s, true, [&](const Config &c) {
    order.push_back(s.canonical(c, true));
    return true;
  });
  TuneOptions o;
  o.maxEvals = 100;
  TuneResult plain = tune(s, eval, o);
  o.timeBudget = 1e6;
  TuneResult a = tune(s, eval, o), b = tune(s, eval, o);
  EXPECT_TRUE(a.exhaustive);
  EXPECT_EQ(a.stopReason, "space enumerated");
  EXPECT_EQ(configs(a), configs(b));
  EXPECT_NE(configs(a), configs(plain));
  std::set<Config> all(order.begin(), order.end());
  std::vector<Config> got = configs(a);
  EXPECT_EQ(std::set<Config>(got.begin(), got.end()), all);
  EXPECT_EQ(got.size(), all.size());
}

} // namespace
