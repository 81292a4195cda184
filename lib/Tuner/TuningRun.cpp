//===- TuningRun.cpp - one tuning run, from the store to the reports ------===//
#include "approx/Tuner/TuningRun.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

namespace approx::tune {

TuningRun::TuningRun(const Space &space, RunSettings settings)
    : space(space), settings(std::move(settings)) {}

TuningRun::~TuningRun() = default;

bool TuningRun::open(std::string &error) {
  TuneOptions &options = settings.options;
  const char *mode = options.dynamic ? "dynamic" : "static";
  if (settings.storePath.empty()) {
    if (settings.resume == Resume::Required) {
      error = "resuming needs a results store";
      return false;
    }
    return true;
  }
  db = Store::open(settings.storePath, error);
  if (!db)
    return false;
  if (settings.resume != Resume::No) {
    std::optional<RunInfo> last;
    if (!db->lastRun(spaceFingerprint(space, options.dynamic), last, error))
      return false;
    if (last) {
      if (settings.checkResume) {
        error = settings.checkResume(*last);
        if (!error.empty())
          return false;
      }
      run = *last;
      // A resumed run replays the stored one, with its options.
      options.seed = run.seed;
      options.qosMin = run.qosMin;
      options.workers = run.workers;
      if (!loadPrior(*db, run, space, options, nextSeq, error))
        return false;
      resumed = true;
      return true;
    }
    if (settings.resume == Resume::Required) {
      error = std::string("no ") + mode + " run of this space in '" +
              settings.storePath + "'";
      return false;
    }
  }
  run = newRunInfo(space, options, settings.spaceName, settings.command);
  if (!db->beginRun(run, error)) {
    error = "results store '" + settings.storePath + "': " + error;
    return false;
  }
  return true;
}

namespace {

/// The exact configuration's time spread above which a run warns that the
/// machine's noise hides speedups (the lowest levels' gains are often
/// 1.1-1.5x).
constexpr double kNoiseWarning = 0.10;

/// Why a run stops when the exact configuration fails on `set`.
std::string exactFailed(InputSet set, const Measurement &m) {
  std::string where = set == InputSet::Tuning
                          ? ""
                          : std::string(" on the ") + inputSetName(set) + " set";
  return "the exact configuration failed" + where + " (" +
         statusName(m.status) + "): " + m.message;
}

/// The sum of a measurement's per-input scores.
double scoreSum(const Measurement &m) {
  double sum = 0;
  for (const InputScore &s : m.detail)
    sum += s.score;
  return sum;
}

/// A frontier point's calibration measurement `m` as a candidate of the
/// fixed sequence: paired with the exact configuration's (`base`), or why
/// it cannot be.
Candidate calibrationCandidate(const Measurement &base, const Measurement &m) {
  Candidate c;
  c.time = m.time;
  Paired p;
  std::string why;
  if (!m.ok())
    c.why = std::string("its calibration run ") + statusName(m.status) +
            ": " + m.message;
  else if (m.detail.empty())
    c.why = "its calibration run wrote no per-input scores";
  else if (!pairScores(base.detail, m.detail, p, why))
    c.why = "its per-input scores do not match the exact configuration's: " +
            why;
  else
    c.paired = std::move(p);
  return c;
}

} // namespace

void TuningRun::store(InputSet set, const Evaluation &e) {
  std::string error;
  if (!db || db->add(run.id, set, e, error) || storeWarned)
    return;
  storeWarned = true;
  if (settings.warn)
    settings.warn("results store '" + settings.storePath + "': " + error);
}

void TuningRun::storeRemeasured(InputSet set, const Holdout &h) {
  Evaluation e = tuned.evaluations[0];
  e.result = h.baseline;
  store(set, e);
  for (size_t i = 0; i < tuned.frontier.size(); ++i) {
    if (h.frontier[i].status == EvalStatus::Unmeasured)
      continue;
    e = tuned.evaluations[tuned.frontier[i]];
    e.result = h.frontier[i];
    store(set, e);
  }
}

bool TuningRun::execute(const EvaluateFn &evaluate, std::string &error) {
  TuneOptions options = settings.options;
  // Called on the search's thread, in order.
  options.onEvaluation = [&](const Evaluation &e) {
    if (settings.onEvaluation && !settings.onEvaluation(e))
      return;
    Evaluation stored = e;
    if (resumed)
      stored.seq = nextSeq++;
    store(InputSet::Tuning, stored);
  };
  tuned = tune(space, evaluate, options);
  if (!tuned.baselineOk()) {
    error = exactFailed(InputSet::Tuning, tuned.evaluations[0].result);
    return false;
  }
  // Speedups within the exact configuration's noise are not deployed
  // (Report::pick); say so when that hides the lower levels' gains.
  if (double noise = tuned.baselineNoise(); noise > kNoiseWarning && settings.warn) {
    char line[320];
    std::snprintf(line, sizeof line,
                  "the exact configuration's median time over its %zu runs on the "
                  "tuning set is known only to within %.0f%% (95%% interval): speedups "
                  "up to %.2fx cannot be told from noise on this machine, and are "
                  "neither reported nor deployed (a loaded machine? raise the "
                  "repetitions, or measure on an idle one)",
                  tuned.evaluations[0].result.samples.size(), noise * 100, 1 + noise);
    settings.warn(line);
  }
  rep = Report();
  rep.space = settings.spaceName;
  rep.mode = options.dynamic ? "dynamic" : "static";
  rep.command = settings.command;
  rep.qosMin = options.qosMin;
  rep.seed = options.seed;
  rep.spaceSize = space.size(options.dynamic);
  rep.params = &space;
  rep.result = &tuned;
  // A search stopped from outside (Python's Ctrl-C) ends the run here.
  if (options.stop && options.stop())
    return true;

  if (settings.holdout) {
    const Config &exact = tuned.evaluations[0].config;
    size_t approximate = size_t(std::count_if(
        tuned.frontier.begin(), tuned.frontier.end(),
        [&](size_t i) { return tuned.evaluations[i].config != exact; }));
    Holdout h = remeasureFrontier(
        tuned, reporting(evaluate, InputSet::Evaluation, approximate),
        options.workers);
    if (!h.baseline.ok()) {
      error = exactFailed(InputSet::Evaluation, h.baseline);
      return false;
    }
    storeRemeasured(InputSet::Evaluation, h);
    rep.holdout = std::move(h);
  }
  return !settings.certify || certify(evaluate, error);
}

std::string remeasureLine(InputSet set, size_t done, size_t most) {
  bool calibration = set == InputSet::Calibration;
  return std::string(inputSetName(set)) + " set: " + std::to_string(done) +
         " of " + (calibration ? "at most " : "") + std::to_string(most) +
         " measurements (" +
         (calibration ? "certification" : "the frontier re-measured") + ")";
}

EvaluateFn TuningRun::reporting(const EvaluateFn &evaluate, InputSet set,
                                size_t points) const {
  if (!settings.onRemeasure)
    return evaluate;
  size_t most = points + 2;
  auto done = std::make_shared<size_t>(0);
  auto mutex = std::make_shared<std::mutex>();
  auto report = settings.onRemeasure;
  return [=](const Config &c, InputSet s) {
    Measurement m = evaluate(c, s);
    std::lock_guard<std::mutex> lock(*mutex);
    report(set, ++*done, most);
    return m;
  };
}

bool TuningRun::certify(const EvaluateFn &evaluate, std::string &error) {
  const CertifySettings &cs = *settings.certify;
  // Each calibration measurement is stored as it is made, so a run stopped
  // during certification keeps what it measured. A resumed run hands the
  // stored ones (those with per-input scores) out again in the order they
  // were made, per configuration (the exact one's first and last are two):
  // certifying again costs only what was not measured, and a finished
  // certification comes out the same.
  std::map<std::string, std::deque<Measurement>> stored;
  size_t calibrationSeq = 0;
  std::vector<Evaluation> calibrated;
  if (db && resumed &&
      !db->evaluations(run.id, InputSet::Calibration, calibrated, error))
    return false;
  for (const Evaluation &e : calibrated) {
    calibrationSeq = std::max(calibrationSeq, e.seq + 1);
    if (e.result.ok() && !e.result.detail.empty())
      stored[formatConfig(e.config)].push_back(e.result);
  }
  std::vector<double> levels = lossLevels();
  double bound = 1 - settings.options.qosMin;
  if (std::none_of(levels.begin(), levels.end(),
                   [&](double l) { return std::fabs(l - bound) < 1e-9; }) &&
      bound < 1)
    levels.push_back(bound);
  // Most accurate first on the tuning set (the slower of equals first, as
  // the frontier's end comes first). The order is fixed before the
  // calibration set is looked at, as fixed-sequence testing requires.
  const Config &exact = tuned.evaluations[0].config;
  auto tuning = [&](size_t i) -> const Measurement & {
    return tuned.evaluations[tuned.frontier[i]].result;
  };
  MeasureOrder plan;
  for (size_t i = tuned.frontier.size(); i-- > 0;)
    if (tuned.evaluations[tuned.frontier[i]].config != exact)
      plan.points.push_back(i);
  std::stable_sort(plan.points.begin(), plan.points.end(), [&](size_t a, size_t b) {
    return tuning(a).qos > tuning(b).qos;
  });
  // A long frontier is thinned on the tuning set, before the calibration
  // set is looked at: the sequence stays valid. A dynamic run's static
  // points (runFrontier) are thinned apart from the rest: their tuning-set
  // times overprice them against mixed trees.
  auto staticPoint = [&](size_t k) {
    return settings.options.dynamic &&
           isStatic(space, tuned.evaluations[tuned.frontier[plan.points[k]]].config);
  };
  std::vector<bool> keep(plan.points.size(), false);
  for (bool statics : {false, true}) {
    std::vector<size_t> members;
    std::vector<double> losses, times;
    for (size_t k = 0; k < plan.points.size(); ++k) {
      if (staticPoint(k) != statics)
        continue;
      const Measurement &m = tuning(plan.points[k]);
      members.push_back(k);
      losses.push_back(1 - m.qos);
      times.push_back(m.time);
    }
    for (size_t j : thinCandidates(losses, times, levels, cs.candidates))
      keep[members[j]] = true;
  }
  std::vector<size_t> sequence;
  for (size_t k = 0; k < plan.points.size(); ++k)
    if (keep[k])
      sequence.push_back(plan.points[k]);
  plan.points = std::move(sequence);
  // The measured point's search evaluation (its technique) for the store.
  auto searched = [&](const Config &c) {
    for (size_t i : tuned.frontier)
      if (tuned.evaluations[i].config == c)
        return tuned.evaluations[i];
    return tuned.evaluations[0];
  };
  std::mutex storedMutex; // the workers measure concurrently
  EvaluateFn measure = reporting(
      [&](const Config &c, InputSet set) {
        {
          std::lock_guard<std::mutex> lock(storedMutex);
          auto it = stored.find(formatConfig(c));
          if (it != stored.end() && !it->second.empty()) {
            Measurement m = it->second.front();
            it->second.pop_front();
            return m;
          }
        }
        Evaluation e = searched(c);
        e.result = evaluate(c, set);
        std::lock_guard<std::mutex> lock(storedMutex);
        e.seq = calibrationSeq++;
        store(InputSet::Calibration, e);
        return e.result;
      },
      InputSet::Calibration, plan.points.size());
  // The measured points, each paired with the exact configuration once as
  // it arrives, become the candidates: a prefix of the order. A point after
  // one that fails at every level is tested at none (each level's sequence
  // has ended): the measurement stops there.
  Certification cert;
  cert.delta = cs.delta;
  cert.bound = cs.bound;
  std::vector<bool> ended(levels.size(), false);
  auto pairMeasured = [&](const Holdout &h) {
    for (size_t k = cert.order.size(); k < plan.points.size(); ++k) {
      const Measurement &m = h.frontier[plan.points[k]];
      if (m.status == EvalStatus::Unmeasured)
        break;
      cert.order.push_back(plan.points[k]);
      cert.candidates.push_back(calibrationCandidate(h.baseline, m));
      for (size_t l = 0; l < levels.size(); ++l)
        ended[l] = ended[l] ||
                   !passes(cert.candidates.back(), levels[l], cs.delta, cs.bound);
    }
  };
  plan.enough = [&](const Holdout &h) {
    if (h.baseline.detail.empty() || scoreSum(h.baseline) <= 0)
      return true; // nothing to pair with: said below
    pairMeasured(h);
    return std::all_of(ended.begin(), ended.end(), [](bool e) { return e; });
  };
  cert.measured = remeasureFrontier(tuned, measure, settings.options.workers,
                                    InputSet::Calibration, &plan);
  const Measurement &base = cert.measured.baseline;
  if (!base.ok()) {
    error = exactFailed(InputSet::Calibration, base);
    return false;
  }
  if (base.detail.empty()) {
    error = "certification needs per-input scores: the exact configuration's "
            "calibration run wrote none to the file APPROX_QOS_DETAIL names "
            "(one '<input id> <score>' line per input; docs/tuning.md)";
    return false;
  }
  std::string nothing; // why nothing can be certified
  if (scoreSum(base) <= 0) {
    nothing = "the exact configuration scored 0 on all " +
              std::to_string(base.detail.size()) +
              " calibration inputs: no loss relative to it can be certified";
    if (settings.warn)
      settings.warn(nothing + "; every level deploys the exact configuration");
  }
  pairMeasured(cert.measured); // the last batch
  for (double level : levels) {
    LevelCertificate c;
    if (nothing.empty()) {
      c = fixedSequence(cert.candidates, level, cs.delta, cs.bound);
      if (c.needed && settings.warn)
        settings.warn("calibration set: " + c.tooFewInputs +
                      "; give it more inputs");
    } else {
      c.level = level;
      c.delta = cs.delta;
      c.stoppedAt = nothing;
    }
    cert.levels.push_back(c);
  }
  rep.certification = std::move(cert);
  return true;
}

const Evaluation &TuningRun::best(bool &certified) const {
  certified = false;
  if (rep.certification && rep.certificate(1 - rep.qosMin)) {
    // The level's deployment pick: certified, and faster than exact.
    certified = true;
    LevelPick p = rep.pick(1 - rep.qosMin);
    return p.point < 0 ? tuned.evaluations[0]
                       : tuned.evaluations[tuned.frontier[size_t(p.point)]];
  }
  if (tuned.best < 0)
    return tuned.evaluations[0];
  const Evaluation &fastest = tuned.evaluations[size_t(tuned.best)];
  return tuned.withinNoise(tuned.evaluations[0].result.time / fastest.result.time)
             ? tuned.evaluations[0]
             : fastest;
}

std::vector<std::pair<std::string, std::string>>
TuningRun::outputFiles() const {
  bool certified;
  std::vector<std::pair<std::string, std::string>> files = {
      {"best_config.json", toJson(best(certified).config)},
      {"pareto.csv", rep.paretoCsv()},
      {"plot.svg", rep.plotSvg()},
      {"speedup.txt", rep.speedupTable()},
      {"summary.json", rep.summaryJson()}};
  // Each level's pick (certified where the run certifies), deployable as
  // best_config.json is: `approx-cc --approx-config=config_3.json`.
  for (double loss : lossLevels()) {
    LevelPick p = rep.pick(loss);
    const Evaluation &e = p.point < 0 ? tuned.evaluations[0]
                                      : tuned.evaluations[tuned.frontier[size_t(p.point)]];
    files.push_back({levelConfigFile(loss), toJson(e.config)});
  }
  return files;
}

} // namespace approx::tune
