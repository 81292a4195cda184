//===- SpaceTest.cpp - configuration spaces -------------------------------===//
#include "SearchFixtures.h"
#include "approx/Tuner/Space.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

using namespace approx::tune;
using namespace approx::tune::testing;

namespace {

/// One decision-tree knob with two bounded thresholds and decisions over
/// {0, 1, 2}, and one static knob over {0, 4}.
Space sample() {
  Space s;
  auto add = [&](TunableParam p) {
    s.params.push_back(p);
    return s.params.size() - 1;
  };
  KnobParams tree{"f", "f", "loop_perforate", true, {}, {}, 0};
  tree.thresholds.push_back(add({"f_threshold_0", 0, 3, 1, ParamKind::Threshold, "f", "f", 0, {}}));
  tree.thresholds.push_back(add({"f_threshold_1", 2, 4, 3, ParamKind::Threshold, "f", "f", 1, {}}));
  for (unsigned j = 0; j < 3; ++j)
    tree.decisions.push_back(add({"f_decision_" + std::to_string(j), 0, 2, 0,
                                  ParamKind::Decision, "f", "f", j, {0, 1, 2}}));
  s.knobs.push_back(tree);
  KnobParams stat{"g", "g", "task_skipping", false, {}, {}, 0};
  stat.knobVal = add({"g_knob_val", 0, 4, 4, ParamKind::KnobVal, "g", "g", 0, {0, 4}});
  s.knobs.push_back(stat);
  return s;
}

TEST(SpaceTest, SizesCountAscendingThresholds) {
  Space s = sample();
  // t0 in [0,3], t1 in [2,4], t0 < t1: (0,2..4)=3, (1,2..4)=3, (2,3..4)=2,
  // (3,4)=1 -> 9; decisions 3^3; static knob 2.
  EXPECT_EQ(s.size(true), 9.0 * 27 * 2);
  // static: one value per knob: 3 * 2.
  EXPECT_EQ(s.size(false), 6.0);
}

TEST(SpaceTest, ValidateReportsEveryProblem) {
  Space s = sample();
  EXPECT_TRUE(s.validate(s.defaults()).empty());
  EXPECT_TRUE(s.validate({{"f_threshold_0", 0}, {"g_knob_val", 0}}).empty());
  auto problems = s.validate({{"f_threshold_0", 3}, // not below t1 = 3
                              {"f_decision_2", 5},
                              {"g_knob_val", 1},
                              {"h", 0}});
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0], "f_decision_2 = 5 is not one of {0, 1, 2}");
  EXPECT_EQ(problems[1], "g_knob_val = 1 is not one of {0, 4}");
  EXPECT_EQ(problems[2], "unknown parameter 'h'");
  EXPECT_EQ(problems[3], "f_threshold_1 = 3 must be above f_threshold_0 = 3");
}

TEST(SpaceTest, ConfigJsonRoundTrip) {
  Config c{{"a_threshold_0", -3}, {"b_decision_1", 12}};
  std::string path = ::testing::TempDir() + "space-roundtrip.json";
  std::ofstream(path) << toJson(c);
  Config back;
  std::string error;
  ASSERT_TRUE(readConfig(path, back, error)) << error;
  EXPECT_EQ(back, c);
}

TEST(SpaceTest, ConfigJsonEscapesNames) {
  // Knob names come from users' annotations: quotes, backslashes and
  // control characters are escaped and read back by the runtime's parser.
  Config c{{"we\"ird\\knob\nname\t_knob_val", 2}, {"plain_knob_val", 1}};
  std::string json = toJson(c);
  EXPECT_NE(json.find("\"we\\\"ird\\\\knob\\u000aname\\u0009_knob_val\": 2"),
            std::string::npos)
      << json;
  std::string path = ::testing::TempDir() + "space-escaped.json";
  std::ofstream(path) << json;
  Config back;
  std::string error;
  ASSERT_TRUE(readConfig(path, back, error)) << error;
  EXPECT_EQ(back, c);
}

TEST(SpaceTest, ConfigJsonErrorsNameTheLine) {
  std::string path = ::testing::TempDir() + "space-bad.json";
  std::ofstream(path) << "{\n  \"a\": 1,\n  \"b\": 2.5\n}\n";
  Config c;
  std::string error;
  EXPECT_FALSE(readConfig(path, c, error));
  EXPECT_EQ(error, path + ":3: values must be integers");
}

TEST(SpaceTest, ToStaticChecksDecisionsAndResetsThresholds) {
  Synthetic syn;
  Config c = {{"a_decision_0", 3}, {"a_decision_1", 3}, {"a_threshold_0", 7}};
  std::string why;
  ASSERT_TRUE(syn.space.toStatic(c, why)) << why;
  EXPECT_EQ(c.at("a_threshold_0"), 0); // the annotation's value
  EXPECT_EQ(c.at("b_decision_1"), 0);  // completed with the defaults
  EXPECT_EQ(c.size(), syn.space.params.size());
  Config mixed = {{"b_decision_0", 1}};
  EXPECT_FALSE(syn.space.toStatic(mixed, why));
  EXPECT_EQ(why, "knob 'b' has different decisions (b_decision_0 = 1, "
                 "b_decision_1 = 0): not a static configuration");
}

TEST(SpaceTest, StartConfigurationsAreCheckedCompletedAndMadeStatic) {
  Synthetic syn;
  std::string why;
  Config partial = {{"b_decision_0", 1}};
  ASSERT_TRUE(syn.space.toStart(partial, /*dynamic=*/true, why)) << why;
  EXPECT_EQ(partial.size(), syn.space.params.size()); // completed
  EXPECT_EQ(partial.at("b_decision_0"), 1);
  Config mixed = {{"b_decision_0", 1}};
  EXPECT_FALSE(syn.space.toStart(mixed, /*dynamic=*/false, why));
  EXPECT_NE(why.find("not a static configuration"), std::string::npos) << why;
  Config unknown = {{"nope", 1}};
  EXPECT_FALSE(syn.space.toStart(unknown, /*dynamic=*/true, why));
  EXPECT_NE(why.find("nope"), std::string::npos) << why;
}

} // namespace
