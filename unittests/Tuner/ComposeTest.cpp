//===- ComposeTest.cpp - per-knob profiles composed -----------------------===//
#include "Compose.h"

#include <gtest/gtest.h>

using namespace approx::tune;

namespace {
KnobOption option(int64_t v, double ratio, double loss) {
  return {{{"k_decision_0", v}}, ratio, loss};
}
} // namespace

TEST(ComposeTest, FastestPredictionWithinTheLoss) {
  Composer c;
  c.options = {{KnobOption{}, option(1, 0.8, 0.01), option(2, 0.5, 0.04)},
               {KnobOption{}, option(1, 0.9, 0.005), option(2, 0.6, 0.03)}};
  // 0.05 allows (2, 1): 0.45 at 0.045; (2, 2) would lose 0.07.
  EXPECT_EQ(c.best(0.05, {}), (std::vector<size_t>{2, 1}));
  // Excluded picks are skipped: next best is (1, 2) at 0.48.
  EXPECT_EQ(c.best(0.05, {{2, 1}}), (std::vector<size_t>{1, 2}));
  // The loss scale tightens the bound: (1, 1) at 0.72, losing 0.03 when
  // doubled, is all that fits.
  c.lossScale = 2;
  EXPECT_EQ(c.best(0.05, {}), (std::vector<size_t>{1, 1}));
  // Nothing but the exact configuration fits: no pick.
  EXPECT_TRUE(c.best(0.001, {}).empty());
  EXPECT_DOUBLE_EQ(c.predictTime({2, 1}), 0.45);
  EXPECT_DOUBLE_EQ(c.predictLoss({2, 1}), 0.09);
}

TEST(ComposeTest, ParetoOptionsKeepTheFrontierAndExactFirst) {
  std::vector<KnobOption> all = {KnobOption{}, option(1, 0.8, 0.01),
                                 option(2, 0.85, 0.02), // dominated by 1
                                 option(3, 0.5, 0.04), option(4, 1.1, 0.0),
                                 option(5, 0.4, 0.2)};
  std::vector<KnobOption> front = paretoOptions(all, 10);
  ASSERT_EQ(front.size(), 4u);
  EXPECT_TRUE(front[0].settings.empty());
  EXPECT_EQ(front[1].settings.at("k_decision_0"), 5);
  EXPECT_EQ(front[2].settings.at("k_decision_0"), 3);
  EXPECT_EQ(front[3].settings.at("k_decision_0"), 1);
  // Thinned evenly, the exact option and both ends kept.
  std::vector<KnobOption> thin = paretoOptions(all, 3);
  ASSERT_EQ(thin.size(), 3u);
  EXPECT_EQ(thin[1].settings.at("k_decision_0"), 5);
  EXPECT_EQ(thin[2].settings.at("k_decision_0"), 1);
}
