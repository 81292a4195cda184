//===- Run.cpp - the measured run every phase appends to -----------------===//
#include "Run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <thread>

namespace approx::tune::search {

std::string key(const Config &c) {
  std::string k;
  for (const auto &[name, value] : c)
    k += name + "=" + std::to_string(value) + ";";
  return k;
}

void sortFrontierOrder(const std::vector<Evaluation> &evals,
                       std::vector<size_t> &indices) {
  std::stable_sort(indices.begin(), indices.end(), [&](size_t a, size_t b) {
    const Measurement &x = evals[a].result, &y = evals[b].result;
    return x.time != y.time ? x.time < y.time : x.qos > y.qos;
  });
}

/// The frontier among `candidates` (indices into `evals`, ascending).
std::vector<size_t> frontierOf(const std::vector<Evaluation> &evals,
                                      std::vector<size_t> candidates) {
  std::vector<size_t> ok;
  for (size_t i : candidates)
    if (evals[i].result.ok())
      ok.push_back(i);
  sortFrontierOrder(evals, ok);
  std::vector<size_t> front;
  double bestQos = -1;
  for (size_t i : ok)
    if (evals[i].result.qos > bestQos) {
      front.push_back(i);
      bestQos = evals[i].result.qos;
    }
  return front;
}

Run::Run(const Space &space, const EvaluateFn &evaluate, const TuneOptions &options)
    : space(space), evaluate(evaluate), options(options),
      encoding(space, options.dynamic), rng(options.seed),
      bandit(5), start(std::chrono::steady_clock::now()) {
  size_t d = std::max<size_t>(1, encoding.dimensions());
  for (size_t k = 0; k < space.knobs.size(); ++k) {
    std::vector<int64_t> values = knobValues(k);
    values.insert(values.begin(), 0);
    valueOrder.push_back(std::move(values));
  }
  techniques.push_back(makeDifferentialEvolution(d));
  techniques.push_back(makeNelderMead(d));
  techniques.push_back(makeGreedyMutation(d));
  techniques.push_back(makeRandomSearch(d));
  techniques.push_back(makeKnobLocal(space, encoding, options.dynamic, valueOrder));
  for (const Evaluation &e : options.prior)
    prior[keyOf(e.config)].push_back(e);
}

bool Run::budgetLeft() {
  if (options.stop && options.stop()) {
    result.stopReason = "stopped";
    return false;
  }
  if (counted >= options.maxEvals) {
    result.stopReason = "evaluation budget reached";
    return false;
  }
  if (options.timeBudget > 0 && elapsed() >= options.timeBudget) {
    result.stopReason = "time budget reached";
    return false;
  }
  return true;
}

double Run::elapsed() const { return sessionSeconds() + clockOffset; }

double Run::sessionSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

double Run::score(const Measurement &m) const {
  // A screened candidate is infeasible by its screen-set QoS; its time is
  // the screen set's, not comparable with the baseline's.
  if (m.status == EvalStatus::Screened)
    return 1000 + 1000 * std::max(0.0, options.qosMin - m.qos) + 1;
  if (!m.ok())
    return 1e9;
  double ratio = m.time / baseTime;
  if (m.qos >= options.qosMin)
    return ratio;
  return 1000 + 1000 * (options.qosMin - m.qos) + ratio;
}

void Run::measureStart() {
  std::vector<Config> configs;
  for (const Config &given : options.start)
    configs.push_back(space.complete(given)); // as decoded points are
  measureAll(configs, "start");
}

Pending Run::given(const Config &c, const char *technique) const {
  Pending p{c, technique, {}};
  p.askers.push_back({-1, 0, encoding.encode(c)});
  return p;
}

void Run::measureAll(const std::vector<Config> &configs, const char *technique) {
  std::vector<Pending> batch;
  std::set<std::string> inBatch;
  auto flush = [&] {
    if (!batch.empty())
      measure(batch, true);
    batch.clear();
    inBatch.clear();
  };
  for (const Config &c : configs) {
    std::string k = keyOf(c);
    if (seen.count(k) || inBatch.count(k))
      continue;
    if (!budgetLeft())
      break;
    batch.push_back(given(c, technique));
    inBatch.insert(k);
    if (batch.size() >= std::max(1u, options.workers) ||
        counted + batch.size() >= options.maxEvals)
      flush();
  }
  flush();
}

std::string Run::keyOf(const Config &c) const {
  return key(space.canonical(c, options.dynamic));
}

std::vector<int64_t> Run::knobValues(size_t k) const {
  std::vector<int64_t> values;
  if (!space.reachable(k))
    return values;
  const TunableParam &p = space.params[space.selectors(space.knobs[k]).front()];
  for (int64_t v : p.values)
    if (v != p.baseline())
      values.push_back(v);
  return values;
}

std::map<std::string, int64_t> Run::knobAt(const KnobParams &k, int64_t v) const {
  std::map<std::string, int64_t> s;
  if (!k.decisionTree)
    s[space.params[k.knobVal].name] = v;
  for (size_t p : k.decisions)
    s[space.params[p].name] = v;
  return s;
}

std::optional<std::pair<double, double>> Run::effect(const Config &c) const {
  auto it = seen.find(keyOf(c));
  if (it == seen.end() || !result.evaluations[it->second].result.ok())
    return std::nullopt;
  const Measurement &m = result.evaluations[it->second].result;
  return std::make_pair(m.time / baseTime,
                        std::max(0.0, result.evaluations[0].result.qos - m.qos));
}

void Run::measure(const std::vector<Pending> &asked, bool counts) {
  // What is measured and recorded is each configuration's representative.
  std::vector<Pending> batch = asked;
  for (Pending &p : batch)
    p.config = space.canonical(p.config, options.dynamic);
  std::vector<Measurement> results(batch.size());
  std::vector<bool> replayed(batch.size(), false);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < batch.size(); ++i) {
    // Replayed measurements are taken in their stored order.
    if (auto it = prior.find(key(batch[i].config));
        it != prior.end() && !it->second.empty()) {
      results[i] = it->second.front().result;
      clockOffset = std::max(clockOffset,
                             it->second.front().clock - sessionSeconds());
      it->second.pop_front();
      replayed[i] = true;
      continue;
    }
    bool baseline = result.evaluations.empty() && i == 0;
    if (batch.size() == 1) {
      results[i] = measureCandidate(batch[i].config, baseline);
      continue;
    }
    threads.emplace_back([&, i, baseline] {
      results[i] = measureCandidate(batch[i].config, baseline);
    });
  }
  for (std::thread &t : threads)
    t.join();

  for (size_t i = 0; i < batch.size(); ++i) {
    const Pending &p = batch[i];
    Evaluation e;
    e.seq = result.evaluations.size();
    e.technique = p.technique;
    e.config = p.config;
    e.result = results[i];
    e.clock = elapsed();
    if (!replayed[i]) {
      ++result.newEvaluations;
      if (options.onEvaluation)
        options.onEvaluation(e);
    }
    if (e.result.status == EvalStatus::Screened)
      ++result.screened;
    else if (!e.result.ok())
      ++result.failed;
    if (counts)
      ++counted;
    result.evaluations.push_back(e);
    if (e.seq == 0)
      baseTime = std::max(e.result.time, 1e-12);
    record(p, score(e.result));
  }
  report();
}

/// One candidate's measurement on the tuning set, screened first when
/// screening is on (never the exact baseline).
Measurement Run::measureCandidate(const Config &c, bool baseline) const {
  if (baseline)
    return measureBaseline(c);
  if (options.screenBelow <= 0)
    return evaluate(c, InputSet::Tuning);
  Measurement screen = evaluate(c, InputSet::Screen);
  if (!screen.ok())
    return screen; // a failure on part of the inputs is a failure
  if (screen.qos >= options.screenBelow)
    return evaluate(c, InputSet::Tuning);
  char why[128];
  std::snprintf(why, sizeof why,
                "screened out: qos %.4f on the screen set, below %.4g",
                screen.qos, options.screenBelow);
  screen.status = EvalStatus::Screened;
  screen.message = why;
  return screen;
}

/// The exact baseline, measured to options.baselineSamples time samples:
/// every speedup is relative to it, and its spread is the noise a
/// speedup must exceed.
Measurement Run::measureBaseline(const Config &c) const {
  Measurement m = evaluate(c, InputSet::Tuning);
  while (m.ok() && m.samples.size() < options.baselineSamples) {
    Measurement more = evaluate(c, InputSet::Tuning);
    if (!more.ok())
      return more;
    if (more.samples.empty())
      break;
    m.samples.insert(m.samples.end(), more.samples.begin(), more.samples.end());
  }
  if (m.samples.size() > 1)
    m.time = median(m.samples);
  return m;
}

/// Adds the newest evaluation to the archive and credits its techniques.
void Run::record(const Pending &p, double s) {
  size_t index = result.evaluations.size() - 1;
  seen.emplace(keyOf(p.config), index);
  scores.push_back(s);
  bool improved = archive.best < 0 || s < archive.entries[size_t(archive.best)].score;
  Point x = p.askers.empty() ? encoding.encode(p.config) : p.askers.front().x;
  archive.add(x, s);
  entryOf.push_back(archive.entries.size() - 1);
  // The frontier so far: that of the previous frontier and the new point
  // (a point off the frontier stays off it). Feasible points only count as
  // credit.
  std::vector<size_t> candidates = frontier;
  candidates.push_back(index);
  std::sort(candidates.begin(), candidates.end());
  frontier = frontierOf(result.evaluations, std::move(candidates));
  bool joined =
      std::find(frontier.begin(), frontier.end(), index) != frontier.end() &&
      result.evaluations[index].result.qos >= options.qosMin;
  archive.frontier.clear();
  for (size_t f : frontier)
    archive.frontier.push_back(entryOf[f]);
  for (const Pending::Asker &a : p.askers) {
    if (a.technique < 0)
      continue;
    techniques[size_t(a.technique)]->observe(a.tag, a.x, s);
    bandit.reward(size_t(a.technique), improved || joined ? 1.0 : 0.0);
  }
}

void Run::report() {
  if (!options.onProgress)
    return;
  Progress pr;
  pr.evaluations = counted;
  pr.maxEvals = options.maxEvals;
  pr.failed = result.failed;
  pr.screened = result.screened;
  pr.frontier = frontier.size();
  pr.elapsed = elapsed();
  pr.timeBudget = options.timeBudget;
  long best = bestIndex();
  if (best >= 0) {
    pr.haveBest = true;
    pr.bestSpeedup = baseTime / result.evaluations[size_t(best)].result.time;
    pr.bestQos = result.evaluations[size_t(best)].result.qos;
  }
  options.onProgress(pr);
}

long Run::bestIndex() const {
  long best = -1;
  for (size_t i = 0; i < result.evaluations.size(); ++i) {
    const Measurement &m = result.evaluations[i].result;
    if (m.ok() && m.qos >= options.qosMin &&
        (best < 0 || m.time < result.evaluations[size_t(best)].result.time))
      best = long(i);
  }
  return best;
}

TuneResult Run::finish() {
  // The search's own frontier (the techniques' and the bandit's) is the
  // Pareto frontier; the result's also keeps a dynamic run's static points.
  result.frontier = runFrontier(space, result.evaluations, options.dynamic);
  result.best = bestIndex();
  result.seconds = elapsed();
  return std::move(result);
}

} // namespace approx::tune::search
