//===- SpaceTest.cpp - configuration spaces -------------------------------===//
#include "SearchFixtures.h"
#include "approx/Tuner/Search.h"
#include "approx/Tuner/Space.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <set>

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

TEST(SpaceTest, SizesCountConfigurationsThatRunDifferentCode) {
  Space s = sample();
  // Decisions d0 d1 d2 from {0, 1, 2}; a threshold between equal decisions
  // separates nothing. All equal: 3 trees. One change (3 * 2 sequences):
  // at t0, t0 in [0,3] (t1 then lowest above it) -> 4, or at t1, t1 in
  // [2,4] -> 3. Two changes (3 * 2 * 2): t0 < t1 within bounds -> 9.
  // 3 + 6 * 7 + 12 * 9 = 153; the static knob 2.
  EXPECT_EQ(s.size(true), 153.0 * 2);
  // static: one value per knob: 3 * 2.
  EXPECT_EQ(s.size(false), 6.0);
}

TEST(SpaceTest, CanonicalResetsWhatSeparatesNothing) {
  Space s = sample();
  // d0 == d1: t0 separates nothing and goes to its lowest value.
  Config c = s.canonical({{"f_threshold_0", 2}, {"f_threshold_1", 4},
                          {"f_decision_0", 1}, {"f_decision_1", 1},
                          {"f_decision_2", 2}},
                         /*dynamic=*/true);
  EXPECT_EQ(c.at("f_threshold_0"), 0);
  EXPECT_EQ(c.at("f_threshold_1"), 4);
  // d1 == d2: t1 goes to the lowest value above t0.
  c = s.canonical({{"f_threshold_0", 1}, {"f_threshold_1", 4},
                   {"f_decision_0", 2}, {"f_decision_1", 1},
                   {"f_decision_2", 1}},
                  true);
  EXPECT_EQ(c.at("f_threshold_0"), 1);
  EXPECT_EQ(c.at("f_threshold_1"), 2);
  // All equal: the annotation's thresholds, as a static configuration.
  c = s.canonical({{"f_threshold_0", 0}, {"f_threshold_1", 4},
                   {"f_decision_0", 2}, {"f_decision_1", 2},
                   {"f_decision_2", 2}},
                  true);
  EXPECT_EQ(c.at("f_threshold_0"), 1);
  EXPECT_EQ(c.at("f_threshold_1"), 3);
  EXPECT_TRUE(s.validate(c).empty());
}

/// `sample()` with a static knob `v` in the variant approx_f_2 of `f`.
Space gated(std::vector<int64_t> fValues) {
  Space s = sample();
  for (size_t j : s.knobs[0].decisions)
    s.params[j].values = fValues;
  KnobParams inner{"v", "approx_f_2", "loop_perforate", false, {}, {}, 0};
  s.params.push_back({"v_knob_val", 0, 3, 0, ParamKind::KnobVal, "approx_f_2",
                      "v", 0, {0, 2, 3}});
  inner.knobVal = s.params.size() - 1;
  inner.gate = Gate{0, 2};
  s.knobs.push_back(inner);
  return s;
}

TEST(SpaceTest, KnobsInVariantsCountOnlyWhereTheVariantRuns) {
  Space s = gated({0, 1, 2});
  EXPECT_TRUE(s.reachable(2));
  // f's static values 0, 1, 2 and v's 3 under 2: (1 + 1 + 3) * g's 2.
  EXPECT_EQ(s.size(false), 10.0);
  Config c = s.canonical({{"f_decision_0", 1}, {"f_decision_1", 1},
                          {"f_decision_2", 1}, {"v_knob_val", 3}},
                         false);
  EXPECT_EQ(c.at("v_knob_val"), 0); // approx_f_2 does not run
  c = s.canonical({{"f_decision_0", 0}, {"f_decision_1", 2},
                   {"f_decision_2", 1}, {"v_knob_val", 3}},
                  true);
  EXPECT_EQ(c.at("v_knob_val"), 3); // it runs for some states
  // No decision of f can select 2: v is don't-care everywhere.
  Space never = gated({0, 1});
  EXPECT_FALSE(never.reachable(2));
  EXPECT_EQ(never.size(false), 2.0 * 2);
}

/// Spaces of one to three knobs (trees with up to three thresholds of
/// random bounds, static knobs, values from {0..3}, some knobs in variants
/// of earlier ones), from `seed`.
Space generated(unsigned seed) {
  std::mt19937 rng(seed);
  auto below = [&](int n) { return int(rng() % unsigned(n)); };
  Space s;
  int knobs = 1 + below(3);
  for (int k = 0; k < knobs; ++k) {
    std::string name = "k" + std::to_string(k);
    KnobParams knob{name, name, "loop_perforate", below(3) != 0, {}, {}, 0};
    std::vector<int64_t> values{0};
    for (int64_t v = 1; v <= 3; ++v)
      if (below(2))
        values.push_back(v);
    if (knob.decisionTree) {
      int m = below(4), last = -1;
      for (int i = 0; i < m; ++i) {
        int lower = last + 1 + below(2), upper = lower + below(4);
        s.params.push_back({name + "_threshold_" + std::to_string(i), lower,
                            upper, lower, ParamKind::Threshold, name, name,
                            unsigned(i), {}});
        knob.thresholds.push_back(s.params.size() - 1);
        last = lower;
      }
      for (int j = 0; j <= m; ++j) {
        s.params.push_back({name + "_decision_" + std::to_string(j), 0, 3, 0,
                            ParamKind::Decision, name, name, unsigned(j), values});
        knob.decisions.push_back(s.params.size() - 1);
      }
    } else {
      s.params.push_back({name + "_knob_val", 0, 3, 0, ParamKind::KnobVal, name,
                          name, 0, values});
      knob.knobVal = s.params.size() - 1;
    }
    if (k > 0 && below(2))
      knob.gate = Gate{size_t(below(k)), 1 + below(3)};
    s.knobs.push_back(knob);
  }
  return s;
}

TEST(SpaceTest, SizeIsTheNumberOfRepresentativesOnGeneratedSpaces) {
  // Enumerating every configuration and keeping the distinct
  // representatives counts what size() computes, static and dynamic (on
  // the spaces of at most 20000 configurations, to keep the test short).
  size_t checked = 0;
  for (unsigned seed = 0; seed < 400; ++seed) {
    Space s = generated(seed);
    size_t raw = 0;
    enumerateSpace(s, true, [&](const Config &) { return ++raw <= 20000; });
    if (raw > 20000)
      continue;
    ++checked;
    for (bool dynamic : {false, true}) {
      std::set<Config> representatives;
      enumerateSpace(s, dynamic, [&](const Config &c) {
        Config r = s.canonical(c, dynamic);
        EXPECT_TRUE(s.validate(r).empty() || !s.validate(c).empty())
            << "seed " << seed;
        EXPECT_EQ(s.canonical(r, dynamic), r) << "seed " << seed;
        representatives.insert(r);
        return true;
      });
      EXPECT_EQ(s.size(dynamic), double(representatives.size()))
          << "seed " << seed << (dynamic ? " dynamic" : " static");
    }
  }
  EXPECT_GE(checked, 300u);
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
