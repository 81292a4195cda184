//===- MetricsTest.cpp - QoS metrics against hand-computed values ---------===//
#include "approx/Tuner/Metrics.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace approx::qos;

namespace {

TEST(MetricsTest, L2Accuracy) {
  // ||(3,4) - (3,1)|| = 3, ||(3,4)|| = 5: 1 - 3/5.
  EXPECT_NEAR(l2Accuracy({3, 4}, {3, 1}), 0.4, 1e-12);
  EXPECT_EQ(l2Accuracy({1, 2}, {1, 2}), 1.0);
  EXPECT_EQ(l2Accuracy({1, 0}, {-5, 0}), 0.0); // clamped
  EXPECT_EQ(l2Accuracy({0, 0}, {0, 0}), 1.0);
  EXPECT_EQ(l2Accuracy({0, 0}, {1, 0}), 0.0);
  EXPECT_EQ(l2Accuracy({1}, {1, 2}), 0.0);
}

TEST(MetricsTest, SuiteMetricsByHand) {
  // Relative errors 0.1 and 0.5: mean 0.3; an error over 100 % counts 1;
  // an exact zero counts 0 when matched, 1 when not.
  EXPECT_NEAR(relativeErrorAccuracy({10, 2}, {11, 1}), 0.7, 1e-12);
  EXPECT_NEAR(relativeErrorAccuracy({1, 1}, {5, 1}), 0.5, 1e-12);
  EXPECT_EQ(relativeErrorAccuracy({0, 2}, {0, 2}), 1.0);
  EXPECT_NEAR(relativeErrorAccuracy({0, 2}, {1e-9, 2}), 0.5, 1e-12);
  EXPECT_EQ(relativeErrorAccuracy({1}, {NAN}), 0.0);
  EXPECT_EQ(relativeErrorAccuracy({1}, {1, 2}), 0.0);
  // One of four answers differs.
  EXPECT_NEAR(missRateAccuracy({1, 0, 1, 1}, {1, 1, 1, 1}), 0.75, 1e-12);
  EXPECT_EQ(missRateAccuracy({}, {}), 1.0);
  // Errors 51 and 0 on two pixels: RMSE sqrt(51^2 / 2), over 255.
  EXPECT_NEAR(imageRmseAccuracy({0, 10}, {51, 10}),
              1 - std::sqrt(51.0 * 51.0 / 2) / 255, 1e-12);
  EXPECT_EQ(imageRmseAccuracy({0}, {255}), 0.0);
  EXPECT_EQ(imageRmseAccuracy({0}, {INFINITY}), 0.0);
}

TEST(MetricsTest, MatchedL2IgnoresCentroidOrder) {
  std::vector<double> exact = {0, 0, 10, 10, 20, 0};
  std::vector<double> permuted = {20, 0, 0, 0, 10, 10};
  EXPECT_EQ(matchedL2Accuracy(exact, permuted, 2), 1.0);
  // One centroid off by (0, 3): ||diff|| = 3, ||exact|| = sqrt(600).
  std::vector<double> off = {10, 13, 20, 0, 0, 0};
  EXPECT_NEAR(matchedL2Accuracy(exact, off, 2), 1 - 3 / std::sqrt(600.0), 1e-12);
}

TEST(MetricsTest, MatchedL2PicksTheCheapestAssignment) {
  // Greedy nearest-first would pair (1,0) with (0,0); the optimum does not.
  std::vector<double> exact = {0, 0, 2, 0};
  std::vector<double> approx = {1, 0, -1, 0};
  // optimum: 1->2 (cost 1), -1->0 (cost 1): diff norm sqrt(2), exact norm 2
  EXPECT_NEAR(matchedL2Accuracy(exact, approx, 2), 1 - std::sqrt(2.0) / 2,
              1e-12);
}

TEST(MetricsTest, RboByHand) {
  // S = a b c, T = a c b, p = 0.95, D = 3:
  // A1 = 1, A2 = 1/2, A3 = 1; RBO_3 = 0.05 (1 + 0.95/2 + 0.9025) = 0.118875,
  // normalised by 1 - 0.95^3 = 0.142625.
  EXPECT_NEAR(rbo({"a", "b", "c"}, {"a", "c", "b"}), 0.118875 / 0.142625,
              1e-12);
  EXPECT_NEAR(rbo({"a", "b"}, {"a", "b"}), 1.0, 1e-12);
  EXPECT_EQ(rbo({"a", "b"}, {"c", "d"}), 0.0);
  EXPECT_EQ(rbo({}, {}), 1.0);
}

TEST(MetricsTest, RboDepthIsCappedAt1000) {
  std::vector<std::string> s, t;
  for (int i = 0; i < 1500; ++i) {
    s.push_back(std::to_string(i));
    t.push_back(std::to_string(i < 1000 ? i : -i));
  }
  EXPECT_NEAR(rbo(s, t), 1.0, 1e-12); // the lists agree on the first 1000 items
}

TEST(MetricsTest, FootruleByHand) {
  // S = a b c, T = b a c: distance |1-2| + |2-1| + 0 = 2; max (disjoint,
  // k = 3, missing rank 4) = (3+2+1) * 2 = 12.
  EXPECT_NEAR(footrule({"a", "b", "c"}, {"b", "a", "c"}), 1 - 2.0 / 12, 1e-12);
  // S = a b, T = a c: b and c missing on the other side: |2-3| + |3-2| = 2;
  // max = (2+1) * 2 = 6.
  EXPECT_NEAR(footrule({"a", "b"}, {"a", "c"}), 1 - 2.0 / 6, 1e-12);
  EXPECT_EQ(footrule({"a"}, {"b"}), 0.0);
}

TEST(MetricsTest, AnswerContainment) {
  EXPECT_EQ(answerContainment("The capital is Paris, France.", {"paris"}), 1.0);
  EXPECT_EQ(answerContainment("It is  New   York!", {"new york"}), 1.0);
  EXPECT_EQ(answerContainment("Parisian food", {"paris"}), 0.0); // whole words
  EXPECT_EQ(answerContainment("no idea", {"42", "forty two"}), 0.0);
  EXPECT_EQ(answerContainment("forty-two", {"forty two"}), 0.0); // "fortytwo"
  EXPECT_EQ(answerContainment("forty-two", {"Forty-Two"}), 1.0);
}

TEST(MetricsTest, AnswerContainmentNormalisesAsNQ) {
  // Articles dropped on both sides.
  EXPECT_EQ(answerContainment("It was the Beatles", {"Beatles"}), 1.0);
  EXPECT_EQ(answerContainment("Beatles", {"The Beatles"}), 1.0);
  EXPECT_EQ(answerContainment("an apple a day", {"apple day"}), 1.0);
  // Punctuation removed, not split: NQ tokenisation and thousands separators.
  EXPECT_EQ(answerContainment("May 18, 2018", {"May 18 , 2018"}), 1.0);
  EXPECT_EQ(answerContainment("about 1,000 people", {"1000"}), 1.0);
  EXPECT_EQ(answerContainment("the U.S. army", {"US"}), 1.0);
  // Non-ASCII letters are letters.
  EXPECT_EQ(answerContainment("Wilhelm Conrad R\xc3\xb6ntgen.", {"Wilhelm Conrad R\xc3\xb6ntgen"}),
            1.0);
  EXPECT_EQ(answerContainment("R\xc3\xb6ntgen", {"R ntgen"}), 0.0);
  // An empty reference never matches; whole words only.
  EXPECT_EQ(answerContainment("anything", {"", "the"}), 0.0);
  EXPECT_EQ(answerContainment("in 1972", {"197"}), 0.0);
}

TEST(MetricsTest, RelativeAccuracyIsCappedAtOne) {
  EXPECT_DOUBLE_EQ(relativeAccuracy(0.15, 0.2), 0.75);
  EXPECT_DOUBLE_EQ(relativeAccuracy(0.25, 0.2), 1.0);
  EXPECT_DOUBLE_EQ(relativeAccuracy(0.0, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(relativeAccuracy(0.1, 0.0), 1.0);
}

TEST(MetricsTest, AnswerAccuracyIsTheMeanOverQuestions) {
  EXPECT_DOUBLE_EQ(answerAccuracy({"Paris", "no idea", "1889", "Jane Austen"},
                                  {{"paris"}, {"42"}, {"in 1889", "1889"}, {"Austen"}}),
                   0.75);
  EXPECT_EQ(answerAccuracy({}, {}), 0.0);
  EXPECT_EQ(answerAccuracy({"a"}, {}), 0.0);
}

} // namespace

TEST(MetricsTest, NumericClosenessReadsTheFirstNumber) {
  using approx::qos::numericCloseness;
  EXPECT_DOUBLE_EQ(numericCloseness("20412", 20412), 1.0);
  EXPECT_DOUBLE_EQ(numericCloseness("It has 20,412 points.", 20412), 1.0);
  EXPECT_DOUBLE_EQ(numericCloseness("about 1,5 million", 1), 1.0); // "1,5" is not 15
  EXPECT_NEAR(numericCloseness("1.5e3", 1500), 1 - 1498.5 / 1500, 1e-12); // no exponents
  EXPECT_DOUBLE_EQ(numericCloseness("-2.5 volts", -2.5), 1.0);
  EXPECT_DOUBLE_EQ(numericCloseness("90", 100), 0.9);
  EXPECT_DOUBLE_EQ(numericCloseness("300", 100), 0.0); // floored at 0
  EXPECT_DOUBLE_EQ(numericCloseness("no number here", 100), 0.0);
  EXPECT_DOUBLE_EQ(numericCloseness("0.25", 0), 0.75);
  EXPECT_DOUBLE_EQ(numericCloseness("12,34", 12), 1.0); // "12" then ",34": not a separator
}

TEST(MetricsTest, SetOverlapIsJaccardOfTheWholeNumbers) {
  using approx::qos::setOverlap;
  EXPECT_DOUBLE_EQ(setOverlap("nodes 5, 9 and 7", {5, 7, 9}), 1.0);
  EXPECT_DOUBLE_EQ(setOverlap("5 9 12", {5, 7, 9}), 0.5);
  EXPECT_DOUBLE_EQ(setOverlap("node 5", {5}), 1.0);
  EXPECT_DOUBLE_EQ(setOverlap("5 5 5", {5, 7}), 0.5);
  EXPECT_DOUBLE_EQ(setOverlap("none", {5}), 0.0);
  EXPECT_DOUBLE_EQ(setOverlap("5", {}), 0.0);
}

TEST(MetricsTest, GradedScoreByKind) {
  using approx::qos::AnswerKind;
  using approx::qos::gradedScore;
  AnswerKind k;
  ASSERT_TRUE(approx::qos::parseAnswerKind("number", k));
  EXPECT_EQ(k, AnswerKind::Number);
  EXPECT_FALSE(approx::qos::parseAnswerKind("Number", k));
  EXPECT_DOUBLE_EQ(gradedScore("The Beatles", AnswerKind::Text, {"beatles"}), 1.0);
  EXPECT_DOUBLE_EQ(gradedScore("50", AnswerKind::Number, {"100"}), 0.5);
  EXPECT_DOUBLE_EQ(gradedScore("1 2", AnswerKind::Set, {"1", "2", "3", "4"}), 0.5);
  EXPECT_EQ(approx::qos::checkGradedReferences(AnswerKind::Number, {"1", "2"}),
            "a number question takes exactly one number as its reference");
  EXPECT_EQ(approx::qos::checkGradedReferences(AnswerKind::Set, {"3", "4"}), "");
  EXPECT_EQ(approx::qos::checkGradedReferences(AnswerKind::Text, {}), "no reference answer");
}
