//===- CertifyTest.cpp - bounds, fixed-sequence testing, per-input scores -===//
#include "SearchFixtures.h"
#include "approx/Tuner/Certify.h"
#include "approx/Tuner/Evaluator.h"
#include "approx/Tuner/Report.h"
#include "approx/Tuner/Store.h"
#include "approx/Tuner/TuningRun.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>

using namespace approx::tune;

namespace {

/// `n` inputs the exact configuration gets right; the configuration gets
/// `wrong` of them wrong.
Paired agreeing(size_t n, size_t wrong) {
  Paired p;
  p.exact.assign(n, 1);
  p.approx.assign(n, 1);
  for (size_t i = 0; i < wrong; ++i)
    p.approx[i * (n / std::max<size_t>(wrong, 1))] = 0;
  return p;
}

/// Pairs drawn i.i.d. with a population loss of `loss` relative to an
/// exact configuration right on half the inputs: of the inputs exact gets
/// right, the configuration gets 2 * loss wrong... minus those it gets
/// right that exact gets wrong (flip = 0.1 of those).
Paired sample(std::mt19937_64 &rng, size_t n, double loss) {
  // E[exact] = 0.5; E[approx] = 0.5 * (1 - w) + 0.5 * f with f = 0.1:
  // loss = 1 - E[approx] / E[exact] = w - f  =>  w = loss + f.
  double f = 0.1, w = loss + f;
  std::uniform_real_distribution<double> u(0, 1);
  Paired p;
  for (size_t i = 0; i < n; ++i) {
    bool exact = u(rng) < 0.5;
    bool approx = exact ? u(rng) >= w : u(rng) < f;
    p.exact.push_back(exact);
    p.approx.push_back(approx);
  }
  return p;
}

/// log P(Binomial(n, p) <= k), summed directly.
double binomialCdf(int n, double p, int k) {
  double s = 0;
  for (int i = 0; i <= k; ++i)
    s += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) -
                  std::lgamma(n - i + 1.0) + i * std::log(p) +
                  (n - i) * std::log1p(-p));
  return s;
}

TEST(Certify, PairedLossIsRelativeToExact) {
  Paired p;
  p.exact = {1, 1, 0, 1};
  p.approx = {1, 0, 1, 1};
  EXPECT_DOUBLE_EQ(p.loss(), 0); // one lost, one gained
  p.approx = {1, 0, 0, 0};
  EXPECT_NEAR(p.loss(), 2.0 / 3, 1e-12);
  p.approx = {1, 1, 1, 1};
  EXPECT_NEAR(p.loss(), -1.0 / 3, 1e-12); // more accurate than exact
}

TEST(Certify, PairsScoresById) {
  std::vector<InputScore> exact = {{"q1", 1}, {"q2", 0}, {"q3", 1}};
  std::vector<InputScore> approx = {{"q3", 0}, {"q1", 1}, {"q2", 1}};
  Paired p;
  std::string error;
  ASSERT_TRUE(pairScores(exact, approx, p, error)) << error;
  EXPECT_EQ(p.approx, (std::vector<double>{1, 1, 0}));
  EXPECT_FALSE(pairScores(exact, {{"q1", 1}, {"q2", 1}}, p, error));
  EXPECT_EQ(error, "no score for input 'q3', which the exact configuration has");
  EXPECT_FALSE(pairScores(exact, {{"q1", 1}, {"q2", 1}, {"q3", 1}, {"q9", 1}},
                          p, error));
  EXPECT_EQ(error,
            "a score for input 'q9', which the exact configuration does not have");
}

// With the exact configuration scoring 1 everywhere, Hoeffding-Bentkus's
// p-value is min(Hoeffding, e * P(Binomial(n, L) <= wrong)) on the loss
// itself: checked against the binomial computed here.
TEST(Certify, HoeffdingBentkusMatchesTheBinomialTail) {
  for (auto [n, wrong, level] :
       {std::tuple{100, 2, 0.1}, {300, 0, 0.01}, {200, 5, 0.06}}) {
    Paired p = agreeing(size_t(n), size_t(wrong));
    double mean = double(wrong) / n;
    double kl = (mean > 0 ? mean * std::log(mean / level) : 0) +
                (1 - mean) * std::log((1 - mean) / (1 - level));
    double expected = std::min({1.0, std::exp(-n * kl),
                                std::exp(1.0) * binomialCdf(n, level, wrong)});
    EXPECT_NEAR(lossPValue(p, level, BoundKind::HoeffdingBentkus), expected,
                1e-9 * std::max(1.0, expected))
        << n << " inputs, " << wrong << " wrong, level " << level;
  }
}

TEST(Certify, BoundsAreNoTighterThanClopperPearson) {
  // 0 of n wrong: Clopper-Pearson's one-sided 95 % bound is
  // 1 - 0.05^(1/n); no valid bound is below it by more than the grid.
  for (size_t n : {100, 400, 1000}) {
    Paired p = agreeing(n, 0);
    double cp = 1 - std::pow(0.05, 1.0 / double(n));
    for (BoundKind k : {BoundKind::Betting, BoundKind::HoeffdingBentkus}) {
      double upper = lossUpperBound(p, 0.05, k);
      EXPECT_GE(upper, cp - 0.001) << boundName(k) << " n=" << n;
      EXPECT_LT(upper, 4 * cp + 0.002) << boundName(k) << " n=" << n;
    }
  }
}

TEST(Certify, NoInputsOrNoExactScoreCertifiesNothing) {
  Paired none;
  EXPECT_EQ(lossPValue(none, 0.09, BoundKind::Betting), 1);
  Paired zero;
  zero.exact = {0, 0, 0};
  zero.approx = {0, 1, 0};
  EXPECT_EQ(lossPValue(zero, 0.09, BoundKind::Betting), 1);
  EXPECT_EQ(lossUpperBound(zero, 0.05, BoundKind::Betting), 1);
}

// The test's error rate at the boundary (true loss = level) is at most
// delta, and the upper bound covers the true loss in >= 1 - delta of the
// draws (1,000 seeded draws of 300 pairs; 3 standard errors of slack).
TEST(Certify, CoverageBySimulation) {
  const double delta = 0.05, loss = 0.06, slack = 3 * std::sqrt(0.05 * 0.95 / 1000);
  for (BoundKind k : {BoundKind::Betting, BoundKind::HoeffdingBentkus}) {
    std::mt19937_64 rng(7);
    int rejected = 0, missed = 0;
    for (int trial = 0; trial < 1000; ++trial) {
      Paired p = sample(rng, 300, loss);
      rejected += lossPValue(p, loss, k) <= delta;
      missed += lossUpperBound(p, delta, k) < loss;
    }
    EXPECT_LE(rejected / 1000.0, delta + slack) << boundName(k);
    EXPECT_LE(missed / 1000.0, delta + slack) << boundName(k);
  }
}

TEST(Certify, BettingCertifiesARealMargin) {
  // 1 % loss measured on 1,000 paired answers, exact right on half: a 9 %
  // level is certified, a 0.5 % one is not.
  std::mt19937_64 rng(3);
  Paired p = sample(rng, 1000, 0.01);
  EXPECT_LE(lossPValue(p, 0.09, BoundKind::Betting), 0.05);
  EXPECT_GT(lossPValue(p, 0.005, BoundKind::Betting), 0.05);
}

Candidate candidate(size_t n, size_t wrong, double time) {
  Candidate c;
  c.paired = agreeing(n, wrong);
  c.time = time;
  return c;
}

TEST(Certify, FixedSequencePicksTheFastestBeforeTheFirstFailure) {
  // Most accurate first; the third fails at 3 %, so the fourth (which
  // would pass) is never tested.
  std::vector<Candidate> cs = {candidate(1000, 0, 0.9), candidate(1000, 2, 0.5),
                               candidate(1000, 80, 0.3), candidate(1000, 1, 0.1)};
  LevelCertificate c = fixedSequence(cs, 0.03, 0.05, BoundKind::Betting);
  EXPECT_EQ(c.pick, 1);
  EXPECT_EQ(c.tested, 3u);
  EXPECT_NE(c.stoppedAt.find("candidate 3: loss 0.0800 on 1000 inputs"),
            std::string::npos)
      << c.stoppedAt;
  // None passes at 0.1 %: the exact configuration.
  c = fixedSequence(cs, 0.001, 0.05, BoundKind::Betting);
  EXPECT_EQ(c.pick, -1);
  EXPECT_EQ(c.tested, 1u);
}

// The fewest inputs a level can pass on: the betting bound's stake is at
// most 3/4 of the largest safe one, so an input that scores as exact raises
// the capital by at most 1 + 0.75 level / (1 - level), and 20 (1 / delta)
// takes at least log 20 / log of that many inputs.
TEST(Certify, MinimumInputsIsTheFirstPassingCount) {
  for (BoundKind k : {BoundKind::Betting, BoundKind::HoeffdingBentkus})
    for (double level : {0.01, 0.03, 0.09}) {
      size_t n = minimumInputs(level, 0.05, k);
      ASSERT_GT(n, 1u) << boundName(k) << " " << level;
      Paired p;
      p.exact.assign(n, 1);
      p.approx.assign(n, 1);
      EXPECT_LE(lossPValue(p, level, k), 0.05);
      p.exact.pop_back();
      p.approx.pop_back();
      EXPECT_GT(lossPValue(p, level, k), 0.05);
    }
  double bound = std::log(20) / std::log1p(0.75 * 0.09 / 0.91);
  EXPECT_GE(double(minimumInputs(0.09, 0.05, BoundKind::Betting)), bound);
  EXPECT_GT(minimumInputs(0.03, 0.05, BoundKind::Betting),
            minimumInputs(0.09, 0.05, BoundKind::Betting));
  EXPECT_EQ(minimumInputs(0.09, 0.05, BoundKind::Betting, 10), 0u);
}

TEST(Certify, TooFewInputsAreNamedAsTheReason) {
  // 30 inputs, all as exact: nothing passes at 9 %, and the certificate
  // says it is the count, not the candidate.
  std::vector<Candidate> cs = {candidate(30, 0, 0.5)};
  LevelCertificate c = fixedSequence(cs, 0.09, 0.05, BoundKind::Betting);
  EXPECT_EQ(c.pick, -1);
  EXPECT_EQ(c.needed, minimumInputs(0.09, 0.05, BoundKind::Betting));
  EXPECT_EQ(c.stoppedAt.rfind("30 inputs cannot certify a loss of at most 9 % at delta 0.05", 0),
            0u)
      << c.stoppedAt;
  // Enough inputs: no such remark.
  cs = {candidate(1000, 0, 0.5)};
  c = fixedSequence(cs, 0.09, 0.05, BoundKind::Betting);
  EXPECT_EQ(c.pick, 0);
  EXPECT_EQ(c.needed, 0u);
  EXPECT_TRUE(c.tooFewInputs.empty());
}

TEST(Certify, FixedSequenceStopsAtAFailedMeasurement) {
  Candidate failed;
  failed.why = "its calibration run crashed";
  std::vector<Candidate> cs = {candidate(1000, 0, 0.9), failed,
                               candidate(1000, 0, 0.1)};
  LevelCertificate c = fixedSequence(cs, 0.09, 0.05, BoundKind::Betting);
  EXPECT_EQ(c.pick, 0);
  EXPECT_EQ(c.tested, 2u);
  EXPECT_EQ(c.stoppedAt, "candidate 2: its calibration run crashed");
}

TEST(QosDetail, ParsesScoresAndSkipsCommentsAndBlankLines) {
  std::vector<InputScore> d;
  std::string error;
  ASSERT_TRUE(parseQosDetail("# id score\nq1 1\n\nq2 0.25\n", "f", d, error))
      << error;
  EXPECT_EQ(d, (std::vector<InputScore>{{"q1", 1}, {"q2", 0.25}}));
  std::vector<InputScore> back;
  ASSERT_TRUE(parseQosDetail(formatQosDetail(d), "f", back, error));
  EXPECT_EQ(back, d);
}

TEST(QosDetail, LocatedErrors) {
  std::vector<InputScore> d;
  std::string error;
  EXPECT_FALSE(parseQosDetail("q1 1\nq2\n", "d.txt", d, error));
  EXPECT_EQ(error, "d.txt:2: expected '<input id> <score>', got 'q2'");
  EXPECT_FALSE(parseQosDetail("q1 1 extra\n", "d.txt", d, error));
  EXPECT_EQ(error, "d.txt:1: expected '<input id> <score>', got 'q1 1 extra'");
  EXPECT_FALSE(parseQosDetail("q1 1\nq2 1.5\n", "d.txt", d, error));
  EXPECT_EQ(error, "d.txt:2: score '1.5' of input 'q2' is not a number in [0, 1]");
  EXPECT_FALSE(parseQosDetail("q1 nan\n", "d.txt", d, error));
  EXPECT_EQ(error, "d.txt:1: score 'nan' of input 'q1' is not a number in [0, 1]");
  EXPECT_FALSE(parseQosDetail("q1 1\nq1 0\n", "d.txt", d, error));
  EXPECT_EQ(error, "d.txt:2: input 'q1' appears twice");
  EXPECT_FALSE(parseQosDetail("\n# nothing\n", "d.txt", d, error));
  EXPECT_EQ(error, "d.txt: no per-input score ('<input id> <score>' lines)");
}

TEST(QosDetail, RepeatedMeasurementKeepsTheFirstRunsScores) {
  int run = 0;
  Measurement m = repeatMeasurement(
      [&] {
        Measurement one;
        one.time = 1 + run;
        one.qos = 1;
        one.detail = {{"in" + std::to_string(run++), 1}};
        return one;
      },
      3);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.detail, (std::vector<InputScore>{{"in0", 1}}));
}

} // namespace

#include "approx/Tuner/Store.h"

#include <sqlite3.h>
#include <unistd.h>

namespace {

std::string tempStore() {
  std::string path = ::testing::TempDir() + "approx-certify-store-XXXXXX";
  int fd = mkstemp(path.data());
  close(fd);
  unlink(path.c_str());
  return path;
}

TEST(QosDetail, StoredWithTheCalibrationMeasurement) {
  std::string path = tempStore(), error;
  auto store = Store::open(path, error);
  ASSERT_TRUE(store) << error;
  RunInfo run;
  run.fingerprint = "abc";
  ASSERT_TRUE(store->beginRun(run, error)) << error;
  Evaluation e;
  e.seq = 3;
  e.config = {{"f_knob_val", 2}};
  e.result.time = 0.5;
  e.result.qos = 0.9;
  e.result.detail = {{"q7", 1}, {"q8", 0}, {"q9", 0.125}};
  ASSERT_TRUE(store->add(run.id, InputSet::Calibration, e, error)) << error;
  std::vector<Evaluation> back;
  ASSERT_TRUE(store->evaluations(run.id, InputSet::Calibration, back, error));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].result.detail, e.result.detail);
  ASSERT_TRUE(store->evaluations(run.id, InputSet::Tuning, back, error));
  EXPECT_TRUE(back.empty());
  unlink(path.c_str());
}

TEST(QosDetail, AStoreWrittenBeforeScoresGainsTheirColumn) {
  std::string path = tempStore(), error;
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE runs(id INTEGER PRIMARY KEY, started "
                         "TEXT, space TEXT, fingerprint TEXT, mode TEXT, seed "
                         "INTEGER, qos_min REAL, workers INTEGER, command "
                         "TEXT, machine TEXT);"
                         "CREATE TABLE evaluations(run INTEGER, seq INTEGER, "
                         "input_set TEXT, technique TEXT, config TEXT, status "
                         "TEXT, time REAL, qos REAL, samples TEXT, message "
                         "TEXT, PRIMARY KEY(run, input_set, seq));"
                         "INSERT INTO runs(fingerprint) VALUES('abc');"
                         "INSERT INTO evaluations VALUES(1, 0, 'tuning', "
                         "'exact', 'a=0', 'ok', 1.0, 1.0, '1', '');",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto store = Store::open(path, error);
  ASSERT_TRUE(store) << error;
  std::vector<Evaluation> back;
  ASSERT_TRUE(store->evaluations(1, InputSet::Tuning, back, error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].result.detail.empty());
  unlink(path.c_str());
}

} // namespace

#include "approx/Tuner/Report.h"

namespace {

// A configuration more accurate than exact is named in full in speedup.txt
// and summary.json, however long its parameters' names (a fixed buffer cut
// the line and its newline, and summary.json then never ended).
TEST(QosDetail, ADominatingConfigurationIsNamedInFull) {
  Space space;
  TuneResult result;
  Evaluation exact, better;
  for (int i = 0; i < 40; ++i) {
    std::string name = "a_rather_long_function_name_" + std::to_string(i) + "_knob_val";
    exact.config[name] = 0;
    better.config[name] = 1;
  }
  exact.result.time = 2;
  exact.result.qos = 1;
  exact.result.detail = {{"q1", 1}, {"q2", 0}, {"q3", 0}};
  better.seq = 1;
  better.result.time = 1;
  better.result.qos = 1;
  better.result.detail = {{"q1", 1}, {"q2", 1}, {"q3", 0}};
  result.evaluations = {exact, better};
  result.frontier = {1, 0};
  Report report;
  report.params = &space;
  report.result = &result;
  std::string note = report.dominatedNote();
  EXPECT_EQ(note.find("exact configuration dominated on the tuning set: a frontier "
                      "point (speedup 2.00x) is more accurate than exact, relative QoS "
                      "2.000 (accuracy 0.6667 against 0.3333, 3 inputs): "),
            0u)
      << note;
  EXPECT_NE(note.find("a_rather_long_function_name_9_knob_val=1\n"), std::string::npos);
  std::string json = report.summaryJson();
  EXPECT_NE(json.find("\"exact_dominated\": [\"exact configuration dominated"),
            std::string::npos);
  EXPECT_EQ(json.substr(json.size() - 4), "]\n}\n");
}

} // namespace

namespace {

/// Per-input scores of 2,000 inputs: those whose fixed pseudo-random number
/// is below `rate` answered wrongly (0), the others right (1).
std::vector<InputScore> wrongShare(double rate) {
  std::vector<InputScore> detail;
  for (int i = 0; i < 2000; ++i) {
    double u = std::fmod(double(i) * 0.6180339887, 1.0);
    detail.push_back({"in" + std::to_string(i), u < rate ? 0.0 : 1.0});
  }
  return detail;
}

/// One static knob "f" over 0..7: decision d takes 1 / (1 + d) of the
/// time and answers wrongly the inputs whose fixed pseudo-random number is
/// below 0.004 d^2 (0, 0.4, 1.6, 3.6, 6.4, 10, 14.4, 19.6 %); exact answers
/// every input. The calibration set has 2,000 inputs, and each calibration
/// measurement is logged.
struct Graded {
  Space space;
  std::mutex mutex;
  std::vector<int64_t> calibrated;
  Graded() { approx::tune::testing::addTree(space, "f", 1, 3, {0, 1, 2, 3, 4, 5, 6, 7}); }
  /// A certified static run at QoS >= 0.91 (every level up to 9 %).
  static RunSettings settings() {
    RunSettings s;
    s.options.dynamic = false;
    s.options.qosMin = 0.91;
    s.options.maxEvals = 20;
    s.certify = CertifySettings();
    return s;
  }
  EvaluateFn evaluator() {
    return [this](const Config &c, InputSet set) {
      int64_t d = c.at("f_decision_0");
      double rate = 0.004 * double(d * d);
      Measurement m;
      m.time = 1.0 / double(1 + d);
      m.samples = {m.time};
      m.qos = 1 - rate;
      if (set == InputSet::Calibration) {
        std::lock_guard<std::mutex> lock(mutex);
        calibrated.push_back(d);
        m.detail = wrongShare(rate);
      }
      return m;
    };
  }
};

} // namespace

// Certification measures the frontier on the calibration set only as far
// as a level's fixed sequence reaches: after the first point that fails at
// every level, nothing is measured (or stored), and what is certified is
// what measuring everything certifies.
TEST(Certify, TheCalibrationSetMeasuresOnlyWhatASequenceReaches) {
  Graded g;
  RunSettings settings = Graded::settings();
  settings.storePath = ::testing::TempDir() + "graded.db";
  std::remove(settings.storePath.c_str());
  TuningRun run(g.space, settings);
  std::string error;
  ASSERT_TRUE(run.open(error)) << error;
  ASSERT_TRUE(run.execute(g.evaluator(), error)) << error;

  // The frontier is every decision; d = 5 (10 % lost) fails at every level
  // (9 % and the bound 9 % are the loosest), so 6 and 7 are not measured.
  const TuneResult &r = run.result();
  ASSERT_EQ(r.frontier.size(), 8u);
  EXPECT_EQ(g.calibrated, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 0}));
  const Certification &c = *run.report().certification;
  EXPECT_EQ(c.order.size(), 5u);
  for (size_t i = 0; i < r.frontier.size(); ++i) {
    int64_t d = r.evaluations[r.frontier[i]].config.at("f_decision_0");
    EXPECT_EQ(c.measured.frontier[i].status == EvalStatus::Unmeasured, d > 5)
        << "decision " << d;
  }
  // Each level's certificate is the one of the whole frontier measured.
  EvaluateFn measure = g.evaluator();
  Measurement exact = measure({{"f_threshold_0", 0}, {"f_decision_0", 0},
                               {"f_decision_1", 0}},
                              InputSet::Calibration);
  std::vector<Candidate> all;
  for (int64_t d = 1; d <= 7; ++d) {
    Measurement m = measure({{"f_threshold_0", 0}, {"f_decision_0", d},
                             {"f_decision_1", d}},
                            InputSet::Calibration);
    Candidate k;
    k.time = m.time;
    Paired p;
    ASSERT_TRUE(pairScores(exact.detail, m.detail, p, error)) << error;
    k.paired = p;
    all.push_back(k);
  }
  ASSERT_EQ(c.levels.size(), 4u);
  for (const LevelCertificate &l : c.levels) {
    LevelCertificate whole = fixedSequence(all, l.level, 0.05, BoundKind::Betting);
    EXPECT_EQ(l.pick, whole.pick) << "level " << l.level;
    EXPECT_EQ(l.tested, whole.tested) << "level " << l.level;
    EXPECT_EQ(l.stoppedAt, whole.stoppedAt) << "level " << l.level;
  }
  EXPECT_EQ(c.levels.back().pick, 3); // at 9 %: d = 4, 6.4 % lost

  // The store holds the measurements made, each as it was made: a resumed
  // run certifies the same without measuring anything again.
  auto store = Store::open(settings.storePath, error);
  ASSERT_TRUE(store) << error;
  std::vector<Evaluation> stored;
  ASSERT_TRUE(store->evaluations(run.runInfo().id, InputSet::Calibration,
                                 stored, error))
      << error;
  EXPECT_EQ(stored.size(), 7u); // exact first, d = 1..5, exact last
  EXPECT_EQ(stored.front().config, stored.back().config);
  std::remove(settings.storePath.c_str());
}

// A long sequence is thinned on the tuning set to the fastest candidate
// within each level and within evenly spaced loss targets; a short one, or
// a cap of 0, keeps every candidate.
TEST(Certify, ThinningKeepsTheFastestWithinEachTarget) {
  // 20 candidates, most accurate first: loss 0.5 % apart, time falling.
  std::vector<double> losses, times;
  for (int i = 1; i <= 20; ++i) {
    losses.push_back(0.005 * i);
    times.push_back(1.0 / i);
  }
  std::vector<double> levels = {0.01, 0.03, 0.06, 0.09};
  // The most accurate candidate, then targets 1/3/6/9 % and 9 % * k/4:
  // 2.25, 4.5, 6.75, 9 %; within each, the fastest is the candidate with
  // the largest loss at most it.
  EXPECT_EQ(thinCandidates(losses, times, levels, 4),
            (std::vector<size_t>{0, 1, 3, 5, 8, 11, 12, 17}));
  EXPECT_EQ(thinCandidates(losses, times, levels, 0).size(), 20u);
  // With at most N candidates within the loosest level (18 here: loss
  // 0.5-9 %), those are kept, and only those.
  EXPECT_EQ(thinCandidates(losses, times, levels, 20).size(), 18u);
  EXPECT_EQ(thinCandidates(losses, times, levels, 18).size(), 18u);
  // inversek2j's static frontier at paper size: one point at 0.01 %, two
  // at 0.35 %, the rest beyond 9 %. Nothing is thinned, so the 0.01 %
  // point (1.16x) stays the fallback of a level its 1.79x point fails.
  std::vector<double> ikLoss = {0.0001, 0.0035, 0.0035, 0.342, 0.344, 0.346,
                                0.457, 0.457, 0.459, 0.514, 0.514};
  std::vector<double> ikTime = {0.86, 0.69, 0.56, 0.51, 0.44, 0.29,
                                0.24, 0.23, 0.21, 0.19, 0.16};
  EXPECT_EQ(thinCandidates(ikLoss, ikTime, levels, 6),
            (std::vector<size_t>{0, 1, 2}));
  // Points meeting no target (loss above the loosest level) are dropped.
  for (size_t k : thinCandidates(losses, times, levels, 12))
    EXPECT_LE(losses[k], 0.09 + 1e-12);
  // A candidate faster than a more accurate one is kept for the target it
  // is fastest within, whatever the order of times.
  std::vector<double> flat(20, 1.0);
  flat[0] = 0.5; // the most accurate candidate is also the fastest
  EXPECT_EQ(thinCandidates(losses, flat, levels, 4),
            (std::vector<size_t>{0}));
}

// With CertifySettings::candidates, a run measures only the thinned
// sequence's points on the calibration set.
TEST(Certify, AThinnedSequenceMeasuresOnlyItsCandidates) {
  Graded g;
  RunSettings settings = Graded::settings();
  settings.certify->candidates = 2;
  TuningRun run(g.space, settings);
  std::string error;
  ASSERT_TRUE(run.open(error)) << error;
  ASSERT_TRUE(run.execute(g.evaluator(), error)) << error;
  // Targets 1, 3, 6, 9 % and 4.5, 9 %: decisions 1-4 (0.4-6.4 % lost).
  EXPECT_EQ(g.calibrated, (std::vector<int64_t>{0, 1, 2, 3, 4, 0}));
  const Certification &c = *run.report().certification;
  EXPECT_EQ(c.order.size(), 4u);
  EXPECT_EQ(c.levels.back().pick, 3); // at 9 %: d = 4
}

namespace {

/// jpeg's DC-only coding in miniature: one tree "f" (threshold 0..3: the
/// share t/4 of inputs below it takes decision 0, the rest decision 1)
/// over decisions 0..2, whose work is 1, 0.5, 0.1 and whose share of
/// wrong answers is 0, 0.5, 1 %. The tuning set runs the runtime-table build:
/// every configuration pays 0.6 for its state, and the tuning instance's
/// noise adds 0.15 to the static ones (every decision alike), so a mixed
/// tree dominates the all-2 point there. The evaluation and calibration
/// sets run baked builds, where a static configuration computes no state:
/// all-2 runs in 0.1 against the mixed trees' 0.6 and more.
struct StateCost {
  Space space;
  StateCost() { approx::tune::testing::addTree(space, "f", 1, 3, {0, 1, 2}); }
  static Measurement measure(const Config &c, InputSet set) {
    const double work[] = {1, 0.5, 0.1}, wrong[] = {0, 0.005, 0.01};
    int64_t d0 = c.at("f_decision_0"), d1 = c.at("f_decision_1");
    double below = double(c.at("f_threshold_0")) / 4;
    bool same = d0 == d1;
    Measurement m;
    m.time = below * work[d0] + (1 - below) * work[d1];
    if (set == InputSet::Tuning)
      m.time += 0.6 + (same ? 0.15 : 0);
    else if (!same)
      m.time += 0.6;
    m.samples = {m.time};
    double rate = below * wrong[d0] + (1 - below) * wrong[d1];
    m.qos = 1 - rate;
    if (set != InputSet::Tuning)
      m.detail = wrongShare(rate);
    return m;
  }
};

} // namespace

// A dynamic run's frontier keeps its static configurations' own frontier
// (runFrontier), and certification thins them apart from the rest: the
// all-2 point, dominated on the tuning set's table build, is certified
// and deployed at every level, as the static run deploys it.
TEST(Certify, ADynamicRunKeepsItsStaticPointsToTheBakedBuild) {
  StateCost s;
  Config all2 = {{"f_threshold_0", 0}, {"f_decision_0", 2}, {"f_decision_1", 2}};
  for (size_t candidates : {0, 1}) {
    RunSettings settings;
    settings.options.dynamic = true;
    settings.options.qosMin = 0.91;
    settings.options.maxEvals = 100;
    settings.holdout = true;
    settings.certify = CertifySettings();
    settings.certify->candidates = candidates;
    TuningRun run(s.space, settings);
    std::string error;
    ASSERT_TRUE(run.open(error)) << error;
    ASSERT_TRUE(run.execute(&StateCost::measure, error)) << error;
    const TuneResult &r = run.result();
    ASSERT_TRUE(r.exhaustive);
    // Off the Pareto frontier of the tuning set, on the run's frontier.
    std::vector<size_t> pareto = paretoFrontier(r.evaluations);
    auto at = [&](const std::vector<size_t> &front) {
      return std::find_if(front.begin(), front.end(), [&](size_t i) {
               return s.space.complete(r.evaluations[i].config) == all2;
             }) != front.end();
    };
    EXPECT_FALSE(at(pareto));
    ASSERT_TRUE(at(r.frontier));
    EXPECT_EQ(r.frontier, runFrontier(s.space, r.evaluations, true));
    for (size_t i = 1; i < r.frontier.size(); ++i)
      EXPECT_LE(r.evaluations[r.frontier[i - 1]].result.time,
                r.evaluations[r.frontier[i]].result.time);
    // Every level deploys it.
    for (double level : {0.03, 0.06, 0.09}) {
      LevelPick p = run.report().pick(level);
      ASSERT_GE(p.point, 0) << "level " << level;
      EXPECT_EQ(s.space.complete(r.evaluations[r.frontier[size_t(p.point)]].config),
                all2)
          << "level " << level << ", " << candidates << " candidates";
    }
    // The sequence is most accurate first on the tuning set.
    const Certification &c = *run.report().certification;
    for (size_t k = 1; k < c.order.size(); ++k)
      EXPECT_GE(r.evaluations[r.frontier[c.order[k - 1]]].result.qos,
                r.evaluations[r.frontier[c.order[k]]].result.qos);
  }
  // A static run of the same space has no such points to keep: its
  // frontier is the Pareto frontier.
  RunSettings settings;
  settings.options.dynamic = false;
  settings.options.qosMin = 0.91;
  TuningRun run(s.space, settings);
  std::string error;
  ASSERT_TRUE(run.open(error)) << error;
  ASSERT_TRUE(run.execute(&StateCost::measure, error)) << error;
  EXPECT_EQ(run.result().frontier, paretoFrontier(run.result().evaluations));
}
