//===- StoreTest.cpp - the results store (Store.h) --------------------------===//
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

TEST(StoreTest, EvaluationsRoundTrip) {
  std::string path = ::testing::TempDir() + "store-roundtrip.db";
  std::remove(path.c_str());
  std::string error;
  auto store = Store::open(path, error);
  ASSERT_TRUE(store) << error;
  RunInfo run;
  run.space = "k.c";
  run.fingerprint = "abc";
  run.mode = "static";
  run.seed = 9;
  run.qosMin = 0.97;
  run.machine = machineInfo();
  ASSERT_TRUE(store->beginRun(run, error)) << error;
  Evaluation e;
  e.seq = 4;
  e.technique = "nelder-mead";
  e.config = {{"f_decision_0", 2}, {"g_knob_val", -1}};
  e.result.status = EvalStatus::Timeout;
  e.result.samples = {0.5, 0.25};
  e.result.time = 0.375;
  e.result.qos = 0.5;
  e.result.message = "no result within 1 s";
  ASSERT_TRUE(store->add(run.id, InputSet::Tuning, e, error)) << error;
  std::vector<Evaluation> back;
  ASSERT_TRUE(store->evaluations(run.id, InputSet::Tuning, back, error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].seq, 4u);
  EXPECT_EQ(back[0].technique, "nelder-mead");
  EXPECT_EQ(back[0].config, e.config);
  EXPECT_EQ(back[0].result.status, EvalStatus::Timeout);
  EXPECT_EQ(back[0].result.samples, e.result.samples);
  EXPECT_EQ(back[0].result.message, e.result.message);
  ASSERT_TRUE(store->evaluations(run.id, InputSet::Evaluation, back, error));
  EXPECT_TRUE(back.empty());
  std::vector<RunInfo> runs;
  ASSERT_TRUE(store->runs(runs, error)) << error;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].qosMin, 0.97);
  EXPECT_EQ(runs[0].seed, 9u);
  EXPECT_FALSE(runs[0].machine.empty());
  std::optional<RunInfo> other;
  ASSERT_TRUE(store->lastRun("other", other, error));
  EXPECT_FALSE(other);
}

TEST(StoreTest, NotAStoreIsAnError) {
  std::string path = ::testing::TempDir() + "store-not-sqlite.db";
  if (FILE *f = std::fopen(path.c_str(), "w")) {
    std::fputs("this is not a database, but it is long enough to look at "
               "its header ........................................\n", f);
    std::fclose(f);
  }
  std::string error;
  EXPECT_FALSE(Store::open(path, error));
  EXPECT_NE(error.find("is not a usable results store"), std::string::npos);
}

} // namespace
