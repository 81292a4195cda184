//===- RunTest.cpp - the measured run: budget, clock, baseline, failures, replay (Search/Run.h) ---===//
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

/// A new store `name` in the test's temporary folder with a run of
/// `space` (seed `seed`) begun in it: `run`; null on failure (with a test
/// failure).
std::unique_ptr<Store> freshStore(const std::string &name, const Space &space,
                                  uint64_t seed, RunInfo &run) {
  std::string path = ::testing::TempDir() + name;
  std::remove(path.c_str());
  std::string error;
  auto store = Store::open(path, error);
  run = RunInfo();
  run.fingerprint = spaceFingerprint(space, true);
  run.seed = seed;
  if (!store || !store->beginRun(run, error)) {
    ADD_FAILURE() << error;
    return nullptr;
  }
  return store;
}

TEST(SearchTest, TimeBudgetStopsTheRun) {
  Synthetic syn;
  TuneOptions o;
  o.maxEvals = 1000000;
  o.timeBudget = 0.2;
  TuneResult r = tune(syn.space, syn.evaluator(), o);
  EXPECT_EQ(r.stopReason, "time budget reached");
  EXPECT_LT(r.evaluations.size(), 1000000u);
}

TEST(SearchTest, FailuresAreRecordedNotFatal) {
  Synthetic syn;
  EvaluateFn eval = [&](const Config &c, InputSet set) {
    Measurement m = model(c, syn.knobs, syn.weights);
    if (c.at("a_decision_1") == 7) {
      m.status = EvalStatus::Crashed;
      m.message = "killed by signal Segmentation fault";
    } else if (c.at("b_decision_0") == 6) {
      m.status = EvalStatus::Timeout;
    }
    return m;
  };
  TuneOptions o;
  o.maxEvals = 200;
  TuneResult r = tune(syn.space, eval, o);
  EXPECT_EQ(r.evaluations.size(), 201u);
  EXPECT_GT(r.failed, 0u);
  size_t failed = 0;
  for (const Evaluation &e : r.evaluations)
    failed += !e.result.ok();
  EXPECT_EQ(failed, r.failed);
  ASSERT_GE(r.best, 0);
  EXPECT_TRUE(r.evaluations[size_t(r.best)].result.ok());
  for (size_t i : r.frontier)
    EXPECT_TRUE(r.evaluations[i].result.ok());
  // The result's frontier is the run's frontier of all evaluations.
  EXPECT_EQ(r.frontier, runFrontier(syn.space, r.evaluations, o.dynamic));
}

TEST(SearchTest, AFailingBaselineStopsTheRun) {
  Synthetic syn;
  EvaluateFn eval = [](const Config &, InputSet) {
    Measurement m;
    m.status = EvalStatus::Failed;
    m.message = "exit status 3";
    return m;
  };
  TuneResult r = tune(syn.space, eval, TuneOptions());
  EXPECT_FALSE(r.baselineOk());
  EXPECT_EQ(r.evaluations.size(), 1u);
}

TEST(SearchTest, TheBaselineIsMeasuredToItsSamples) {
  // The exact configuration is measured until it has baselineSamples time
  // samples (here one per call); their spread is the run's noise.
  Synthetic syn;
  int exactCalls = 0;
  Config exact;
  EvaluateFn eval = [&](const Config &c, InputSet) {
    Measurement m = model(c, syn.knobs, syn.weights);
    if (exactCalls == 0 || c == exact) {
      exact = c;
      m.time *= 1 + 0.1 * (exactCalls++ % 3); // 1, 1.1, 1.2, ...
      m.samples = {m.time};
    }
    return m;
  };
  TuneOptions o;
  o.maxEvals = 20;
  o.baselineSamples = 7;
  TuneResult r = tune(syn.space, eval, o);
  EXPECT_EQ(exactCalls, 7);
  ASSERT_EQ(r.evaluations[0].result.samples.size(), 7u);
  // Samples 1, 1.1, 1.2, 1, 1.1, 1.2, 1: with 7 samples the median's 95 %
  // interval starts at the fastest one, 1; median 1.1.
  EXPECT_NEAR(r.baselineNoise(), 1.1 / 1.0 - 1, 1e-9);
  o.baselineSamples = 1;
  EXPECT_LT(tune(syn.space, syn.evaluator(), o).baselineNoise(), 0);
}

TEST(SearchTest, ResumeContinuesAStoppedRunThroughTheStore) {
  Synthetic syn;
  std::string path = ::testing::TempDir() + "search-resume.db";
  std::string error;
  RunInfo run;
  auto store = freshStore("search-resume.db", syn.space, 5, run);
  ASSERT_TRUE(store);

  TuneOptions o;
  o.seed = 5;
  o.maxEvals = 40;
  o.onEvaluation = [&](const Evaluation &e) {
    ASSERT_TRUE(store->add(run.id, InputSet::Tuning, e, error)) << error;
  };
  std::atomic<int> firstCalls{0};
  TuneResult stopped = tune(syn.space, syn.evaluator(&firstCalls), o);
  EXPECT_EQ(firstCalls, 41); // 40 candidates and the baseline

  // A new process: the store tells what was done.
  store.reset();
  store = Store::open(path, error);
  ASSERT_TRUE(store) << error;
  std::optional<RunInfo> last;
  ASSERT_TRUE(store->lastRun(spaceFingerprint(syn.space, true), last, error))
      << error;
  ASSERT_TRUE(last);
  EXPECT_EQ(last->id, run.id);
  TuneOptions resumed = o;
  resumed.maxEvals = 100;
  ASSERT_TRUE(store->evaluations(run.id, InputSet::Tuning, resumed.prior, error))
      << error;
  ASSERT_EQ(resumed.prior.size(), 41u);
  std::atomic<int> calls{0};
  TuneResult r = tune(syn.space, syn.evaluator(&calls), resumed);
  EXPECT_EQ(calls, 60);            // only the new evaluations are measured
  EXPECT_EQ(r.newEvaluations, 60u);

  // ... and the resumed run is the run that was never stopped.
  TuneOptions whole = o;
  whole.maxEvals = 100;
  whole.onEvaluation = nullptr;
  TuneResult straight = tune(syn.space, syn.evaluator(), whole);
  EXPECT_EQ(configs(r), configs(straight));
  EXPECT_EQ(r.best, straight.best);
}

TEST(SearchTest, AResumedRunsTimeBudgetCountsEarlierSessions) {
  // The search's clock is stored with each evaluation; a resumed run's
  // clock continues from the last one replayed, so --time-budget bounds
  // the whole run, not each session.
  Synthetic syn;
  std::string error;
  RunInfo run;
  auto store = freshStore("search-clock.db", syn.space, 1, run);
  ASSERT_TRUE(store);
  TuneOptions o;
  o.maxEvals = 20;
  std::vector<Evaluation> recorded;
  o.onEvaluation = [&](const Evaluation &e) {
    recorded.push_back(e);
    ASSERT_TRUE(store->add(run.id, InputSet::Tuning, e, error)) << error;
  };
  tune(syn.space, syn.evaluator(), o);
  ASSERT_EQ(recorded.size(), 21u);
  for (size_t i = 1; i < recorded.size(); ++i)
    EXPECT_GE(recorded[i].clock, recorded[i - 1].clock) << i;
  // The earlier session ran for an hour (as if): its last clock says so.
  Evaluation last = recorded.back();
  last.clock = 3600;
  ASSERT_TRUE(store->add(run.id, InputSet::Tuning, last, error)) << error;

  TuneOptions resumed = o;
  resumed.maxEvals = 100;
  resumed.onEvaluation = nullptr;
  ASSERT_TRUE(store->evaluations(run.id, InputSet::Tuning, resumed.prior, error))
      << error;
  EXPECT_EQ(resumed.prior.back().clock, 3600);
  resumed.timeBudget = 1800; // spent already: nothing new is measured
  std::atomic<int> calls{0};
  TuneResult r = tune(syn.space, syn.evaluator(&calls), resumed);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(r.newEvaluations, 0u);
  EXPECT_EQ(r.stopReason, "time budget reached");
  EXPECT_GE(r.seconds, 3600);
  resumed.timeBudget = 7200; // an hour left: the run goes on
  r = tune(syn.space, syn.evaluator(&calls), resumed);
  EXPECT_EQ(r.newEvaluations, 80u);
  EXPECT_GE(r.evaluations.back().clock, 3600);
}

TEST(SearchTest, ResumeReplaysNoisyMeasurementsExactly) {
  // Real timings differ from run to run: a resumed run must follow the
  // stored measurements, not new ones (here the annotation's defaults are
  // the exact configuration, which must not be measured twice).
  Synthetic syn;
  int noise = 0;
  EvaluateFn noisy = [&](const Config &c, InputSet) {
    Measurement m = model(c, syn.knobs, syn.weights);
    m.time *= 1 + 0.01 * (++noise % 7);
    return m;
  };
  TuneOptions o;
  o.seed = 3;
  o.maxEvals = 30;
  std::vector<Evaluation> stored;
  o.onEvaluation = [&](const Evaluation &e) { stored.push_back(e); };
  TuneResult stopped = tune(syn.space, noisy, o);
  ASSERT_EQ(stored.size(), 31u);
  TuneOptions resumed = o;
  resumed.maxEvals = 50;
  resumed.prior = stored;
  resumed.onEvaluation = nullptr;
  int before = noise;
  TuneResult r = tune(syn.space, noisy, resumed);
  EXPECT_EQ(noise - before, 20);
  EXPECT_EQ(r.newEvaluations, 20u);
  for (size_t i = 0; i < stored.size(); ++i)
    EXPECT_EQ(r.evaluations[i].config, stored[i].config) << i;
  // Every configuration is measured once in a run.
  std::set<Config> distinct;
  for (const Evaluation &e : r.evaluations)
    EXPECT_TRUE(distinct.insert(e.config).second) << "measured twice: seq " << e.seq;
}

} // namespace
