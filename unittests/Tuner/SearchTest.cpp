//===- SearchTest.cpp - search, evaluation, store and reports -------------===//
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

namespace {

/// A decision-tree knob `name` with `t` thresholds in [0, hi] and decisions
/// over `values`.
void addTree(Space &s, const std::string &name, unsigned t, int64_t hi,
             std::vector<int64_t> values) {
  KnobParams k{name, name, "loop_perforate", true, {}, {}, 0};
  for (unsigned i = 0; i < t; ++i) {
    s.params.push_back({name + "_threshold_" + std::to_string(i), 0, hi,
                        int64_t(i), ParamKind::Threshold, name, name, i, {}});
    k.thresholds.push_back(s.params.size() - 1);
  }
  for (unsigned j = 0; j <= t; ++j) {
    s.params.push_back({name + "_decision_" + std::to_string(j), values.front(),
                        values.back(), 0, ParamKind::Decision, name, name, j,
                        values});
    k.decisions.push_back(s.params.size() - 1);
  }
  s.knobs.push_back(k);
}

/// A model of dynamic knobs: the state is uniform over [0, 50); below the
/// threshold decision 0 applies, above it decision 1. Decision d makes the
/// knob's work 1/(1+d) as long and loses weight*d^2 of QoS.
Measurement model(const Config &c, const std::vector<std::string> &knobs,
                  const std::vector<double> &weights) {
  double time = 0, loss = 0;
  for (size_t k = 0; k < knobs.size(); ++k) {
    double below = double(c.at(knobs[k] + "_threshold_0")) / 50;
    double d0 = double(c.at(knobs[k] + "_decision_0"));
    double d1 = double(c.at(knobs[k] + "_decision_1"));
    time += below / (1 + d0) + (1 - below) / (1 + d1);
    loss += weights[k] * (below * d0 * d0 + (1 - below) * d1 * d1);
  }
  Measurement m;
  m.time = time;
  m.qos = std::max(0.0, 1 - loss);
  m.samples = {time};
  return m;
}

struct Synthetic {
  Space space;
  std::vector<std::string> knobs = {"a", "b"};
  std::vector<double> weights = {0.004, 0.001};
  Synthetic() {
    for (const std::string &k : knobs)
      addTree(space, k, 1, 49, {0, 1, 2, 3, 4, 5, 6, 7});
  }
  EvaluateFn evaluator(std::atomic<int> *calls = nullptr) const {
    return [this, calls](const Config &c, InputSet) {
      if (calls)
        ++*calls;
      return model(c, knobs, weights);
    };
  }
};

/// One tree knob with 4 thresholds and 4 decision values: 64 dynamic
/// configurations.
struct SmallTree {
  Space space;
  EvaluateFn eval = [](const Config &c, InputSet) {
    return model(c, {"f"}, {0.01});
  };
  SmallTree() { addTree(space, "f", 1, 3, {0, 1, 2, 3}); }
};

std::vector<Config> configs(const TuneResult &r) {
  std::vector<Config> out;
  for (const Evaluation &e : r.evaluations)
    out.push_back(e.config);
  return out;
}

TEST(SearchTest, ExhaustiveFindsTheOptimumOfASmallSpace) {
  SmallTree t;
  const Space &s = t.space;
  const EvaluateFn &eval = t.eval;
  // Brute force: the fastest configuration with QoS >= 0.95.
  double bestTime = 1e9;
  size_t count = 0;
  enumerateSpace(s, true, [&](const Config &c) {
    ++count;
    Measurement m = eval(c, InputSet::Tuning);
    if (m.qos >= 0.95)
      bestTime = std::min(bestTime, m.time);
    return true;
  });
  EXPECT_EQ(double(count), s.size(true)); // 4 thresholds x 16 decisions
  TuneOptions o;
  o.qosMin = 0.95;
  o.maxEvals = 100;
  TuneResult r = tune(s, eval, o);
  EXPECT_TRUE(r.exhaustive);
  ASSERT_GE(r.best, 0);
  EXPECT_DOUBLE_EQ(r.evaluations[size_t(r.best)].result.time, bestTime);
  // Every configuration once (the exact one is also the baseline).
  EXPECT_EQ(r.evaluations.size(), count);
}

TEST(SearchTest, EnsembleFindsTheOptimumOfALargeSpace) {
  Synthetic syn;
  double bestTime = 1e9;
  enumerateSpace(syn.space, true, [&](const Config &c) {
    Measurement m = model(c, syn.knobs, syn.weights);
    if (m.qos >= 0.9)
      bestTime = std::min(bestTime, m.time);
    return true;
  });
  ASSERT_EQ(syn.space.size(true), 50.0 * 64 * 50 * 64);
  for (uint64_t seed : {1, 2, 3}) {
    TuneOptions o;
    o.qosMin = 0.9;
    o.maxEvals = 800;
    o.seed = seed;
    TuneResult r = tune(syn.space, syn.evaluator(), o);
    EXPECT_FALSE(r.exhaustive);
    ASSERT_GE(r.best, 0);
    const Measurement &b = r.evaluations[size_t(r.best)].result;
    EXPECT_GE(b.qos, 0.9);
    // 800 of 10.2 million configurations (seeds 1-5 reach the optimum
    // within 800; most within 400-600).
    EXPECT_DOUBLE_EQ(b.time, bestTime) << "seed " << seed;
  }
}

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

TEST(SearchTest, ThresholdsStayAscendingAndWithinBounds) {
  Space s;
  addTree(s, "f", 3, 20, {0, 1, 2});
  std::atomic<int> invalid{0};
  EvaluateFn eval = [&](const Config &c, InputSet) {
    if (c.at("f_decision_0") + c.at("f_decision_1") > 0 && !s.validate(c).empty())
      ++invalid;
    Measurement m;
    m.time = 1.0 / (1 + double(c.at("f_decision_1")));
    m.qos = 1 - 0.1 * double(c.at("f_decision_2"));
    return m;
  };
  TuneOptions o;
  o.maxEvals = 300;
  tune(s, eval, o);
  EXPECT_EQ(invalid, 0);
}

TEST(SearchTest, SameSeedSameRun) {
  Synthetic syn;
  for (unsigned workers : {1u, 3u}) {
    TuneOptions o;
    o.maxEvals = 120;
    o.seed = 11;
    o.workers = workers;
    TuneResult a = tune(syn.space, syn.evaluator(), o);
    TuneResult b = tune(syn.space, syn.evaluator(), o);
    EXPECT_EQ(configs(a), configs(b)) << workers << " workers";
    EXPECT_EQ(a.best, b.best);
    o.seed = 12;
    TuneResult c = tune(syn.space, syn.evaluator(), o);
    EXPECT_NE(configs(a), configs(c));
  }
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
  EXPECT_NEAR(r.baselineNoise(), 0.2 / 1.1, 1e-9); // (1.2 - 1) / median 1.1
  o.baselineSamples = 1;
  EXPECT_LT(tune(syn.space, syn.evaluator(), o).baselineNoise(), 0);
}

TEST(SearchTest, SpeedupsWithinTheBaselinesNoiseAreNotDeployed) {
  // The exact configuration's times spread 30 %; a 1.05x point is within
  // that noise (reported 1.00x, the exact configuration deployed), a 2x
  // point is not.
  Synthetic syn;
  TuneResult r;
  Evaluation exact, small, large;
  exact.config = exactConfig(syn.space);
  exact.result.time = 1.0;
  exact.result.qos = 1;
  exact.result.samples = {1.0, 0.9, 1.2, 1.0, 0.95};
  small.seq = 1;
  small.config = exact.config;
  small.config["a_decision_0"] = 1;
  small.result.time = 0.95;
  small.result.qos = 0.99;
  small.result.samples = {0.95};
  large.seq = 2;
  large.config = exact.config;
  large.config["b_decision_0"] = 2;
  large.result.time = 0.5;
  large.result.qos = 0.92;
  large.result.samples = {0.5};
  r.evaluations = {exact, small, large};
  r.frontier = {2, 1, 0};
  Report rep;
  rep.result = &r;
  rep.params = &syn.space;
  EXPECT_NEAR(r.baselineNoise(), 0.3, 1e-9);
  LevelPick low = rep.pick(0.01);
  EXPECT_EQ(low.point, -1);
  EXPECT_NEAR(low.withinNoise, 1 / 0.95, 1e-9);
  EXPECT_EQ(rep.tuningSpeedup(0.01), 1.0);
  LevelPick high = rep.pick(0.09);
  EXPECT_EQ(high.point, 0);
  EXPECT_EQ(high.withinNoise, 0);
  EXPECT_NEAR(rep.tuningSpeedup(0.09), 2.0, 1e-9);
  EXPECT_NE(rep.speedupTable().find("within it: <= 1% (1.05x), <= 3% (1.05x), <= 6% (1.05x)"),
            std::string::npos)
      << rep.speedupTable();
  EXPECT_NE(rep.summaryJson().find("\"within_noise\": "), std::string::npos);
  // Without a measured noise (one sample) the small point is deployed.
  r.evaluations[0].result.samples = {1.0};
  EXPECT_EQ(rep.pick(0.01).point, 1);
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
  // The frontier kept during the search is the frontier of all evaluations.
  EXPECT_EQ(r.frontier, paretoFrontier(r.evaluations));
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

TEST(SearchTest, ExhaustiveUnderATimeBudgetShufflesItsOrder) {
  // A budget that runs out must leave a sample of the whole space, not its
  // first corner in enumeration order; the order is still seeded.
  SmallTree t;
  const Space &s = t.space;
  const EvaluateFn &eval = t.eval;
  std::vector<Config> order;
  enumerateSpace(s, true, [&](const Config &c) {
    order.push_back(c);
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

TEST(SearchTest, TimeBudgetStopsTheRun) {
  Synthetic syn;
  TuneOptions o;
  o.maxEvals = 1000000;
  o.timeBudget = 0.2;
  TuneResult r = tune(syn.space, syn.evaluator(), o);
  EXPECT_EQ(r.stopReason, "time budget reached");
  EXPECT_LT(r.evaluations.size(), 1000000u);
}

TEST(ParetoTest, FrontierAndSpeedups) {
  auto eval = [](double time, double qos, bool ok = true) {
    Evaluation e;
    e.result.time = time;
    e.result.qos = qos;
    e.result.status = ok ? EvalStatus::Ok : EvalStatus::Failed;
    return e;
  };
  std::vector<Evaluation> es = {eval(10, 1),    eval(5, 0.99), eval(6, 0.98),
                                eval(2, 0.9),   eval(4, 0.99), eval(1, 0.5),
                                eval(0.1, 1, false)};
  // (1, .5), (2, .9), (4, .99), (10, 1): (5, .99) and (6, .98) are dominated.
  EXPECT_EQ(paretoFrontier(es), (std::vector<size_t>{5, 3, 4, 0}));
  std::vector<Measurement> ms;
  for (const Evaluation &e : es)
    ms.push_back(e.result);
  EXPECT_DOUBLE_EQ(speedupAt(10, ms, 0.01), 2.5);  // (4, .99)
  EXPECT_DOUBLE_EQ(speedupAt(10, ms, 0.1), 5.0);   // (2, .9)
  EXPECT_DOUBLE_EQ(speedupAt(10, ms, 0.0), 1.0);   // only the exact one
}

TEST(HoldoutTest, TheExactConfigurationBracketsTheFrontier) {
  // The machine slows down by 10% per evaluation-set measurement: the
  // baseline is measured first and last, its time the median of both, and
  // the exact frontier point reuses the last measurement.
  Synthetic syn;
  TuneOptions o;
  o.qosMin = 0.9;
  o.maxEvals = 60;
  TuneResult r = tune(syn.space, syn.evaluator(), o);
  ASSERT_GE(r.frontier.size(), 2u);
  ASSERT_EQ(r.frontier.back(), 0u); // the exact configuration: slowest, QoS 1
  std::vector<Config> calls;
  EvaluateFn drifting = [&](const Config &c, InputSet set) {
    EXPECT_EQ(set, InputSet::Evaluation);
    Measurement m = model(c, syn.knobs, syn.weights);
    m.time *= 1 + 0.1 * double(calls.size());
    m.samples = {m.time};
    calls.push_back(c);
    return m;
  };
  Holdout h = remeasureFrontier(r, drifting, 1);
  ASSERT_EQ(calls.size(), r.frontier.size() + 1);
  EXPECT_EQ(calls.front(), r.evaluations[0].config);
  EXPECT_EQ(calls.back(), r.evaluations[0].config);
  double exact = model(r.evaluations[0].config, syn.knobs, syn.weights).time;
  double last = exact * (1 + 0.1 * double(calls.size() - 1));
  EXPECT_DOUBLE_EQ(h.frontier.back().time, last);
  EXPECT_DOUBLE_EQ(h.baseline.time, (exact + last) / 2);
  EXPECT_EQ(h.baseline.samples.size(), 2u);
}

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
