//===- EvaluatorTest.cpp - evaluation commands and repetitions (Evaluator.h) ---===//
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

TEST(EvaluatorTest, ParsesTheResultLine) {
  double t = 0, q = 0;
  std::string error;
  EXPECT_TRUE(parseResultLine("noise\napprox-result: time=0.5 qos=0.75 n=3\n",
                              t, q, error));
  EXPECT_EQ(t, 0.5);
  EXPECT_EQ(q, 0.75);
  EXPECT_TRUE(parseResultLine("approx-result: time=1 qos=0\n"
                              "approx-result: qos=1 time=2e-3",
                              t, q, error)); // the last line counts
  EXPECT_EQ(t, 0.002);
  EXPECT_FALSE(parseResultLine("time=1 qos=1", t, q, error));
  EXPECT_EQ(error, "no 'approx-result: time=<seconds> qos=<0..1>' line in the output");
  EXPECT_FALSE(parseResultLine("approx-result: time=1", t, q, error));
  EXPECT_EQ(error, "the approx-result line lacks qos=");
  EXPECT_FALSE(parseResultLine("approx-result: time=x qos=1", t, q, error));
  EXPECT_EQ(error, "bad value in 'time=x'");
  EXPECT_FALSE(parseResultLine("approx-result: time=1 qos=1.5", t, q, error));
  EXPECT_EQ(error, "qos 1.500000 is outside [0, 1]");
}

Measurement runCommand(const std::string &command, double timeout = 0,
                       InputSet set = InputSet::Tuning) {
  CommandOptions o{command, 1, timeout};
  return commandEvaluator(o)({{"f_decision_0", 3}, {"f_threshold_0", 7}}, set);
}

TEST(EvaluatorTest, CommandSeesTheConfigurationAndTheInputSet) {
  Measurement m = runCommand(
      "grep -q '\"f_decision_0\": 3' \"$APPROX_CONFIG\" && "
      "test \"$APPROX_INPUT_SET\" = evaluation && "
      "echo 'approx-result: time=0.25 qos=0.5'",
      0, InputSet::Evaluation);
  EXPECT_TRUE(m.ok()) << m.message;
  EXPECT_EQ(m.time, 0.25);
  EXPECT_EQ(m.qos, 0.5);
}

TEST(EvaluatorTest, CommandFailuresHaveAStatusAndAReason) {
  Measurement exit3 = runCommand("echo 'cannot open input' >&2; exit 3");
  EXPECT_EQ(exit3.status, EvalStatus::Failed);
  EXPECT_EQ(exit3.message, "exit status 3: cannot open input");
  Measurement crash = runCommand("kill -SEGV $$");
  EXPECT_EQ(crash.status, EvalStatus::Crashed);
  EXPECT_NE(crash.message.find("Segmentation fault"), std::string::npos);
  Measurement slow = runCommand("sleep 5; echo 'approx-result: time=1 qos=1'", 0.3);
  EXPECT_EQ(slow.status, EvalStatus::Timeout);
  Measurement garbage = runCommand("echo hello");
  EXPECT_EQ(garbage.status, EvalStatus::Unparsable);
  Measurement missing = runCommand("/nonexistent/program");
  EXPECT_EQ(missing.status, EvalStatus::Failed);
  EXPECT_EQ(missing.message,
            "exit status 127: cannot execute /nonexistent/program");
}

TEST(EvaluatorTest, RepetitionsGiveMedians) {
  int run = 0;
  double times[] = {3, 1, 2};
  Measurement m = repeatMeasurement(
      [&] {
        Measurement one;
        one.time = times[run++];
        one.qos = 0.9;
        return one;
      },
      3);
  EXPECT_EQ(m.time, 2);
  EXPECT_EQ(m.samples, (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(m.qos, 0.9);
}

TEST(EvaluatorTest, RepetitionsAdaptToTheNoiseMeasured) {
  auto runs = [](std::vector<double> times, std::vector<double> qos,
                 unsigned cap, double tolerance) {
    size_t run = 0;
    return repeatMeasurement(
        [&] {
          Measurement one;
          one.time = times[run];
          one.qos = qos[run];
          ++run;
          return one;
        },
        cap, tolerance);
  };
  // Two agreeing runs are enough.
  EXPECT_EQ(runs({1.0, 1.01, 5}, {0.9, 0.9, 0.9}, 5, 0.02).samples.size(), 2u);
  // Noisy times repeat until they agree ...
  Measurement m = runs({1.0, 1.5, 1.49, 1.2, 9}, {0.9, 0.9, 0.9, 0.9, 0.9}, 5, 0.02);
  EXPECT_EQ(m.samples.size(), 5u); // the spread stays above 2 %: the cap
  // ... a QoS that differs between runs is measured again, and no
  // tolerance (0) always runs the cap.
  EXPECT_EQ(runs({1, 1, 1}, {0.9, 0.8, 0.9}, 3, 0.02).samples.size(), 3u);
  EXPECT_EQ(runs({1, 1, 1}, {0.9, 0.9, 0.9}, 3, 0).samples.size(), 3u);
}

} // namespace
