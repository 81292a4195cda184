//===- Report.cpp - what a tuning run tells its user ----------------------===//
#include "approx/Tuner/Report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace approx::tune {

const std::vector<double> &lossLevels() {
  static const std::vector<double> levels = {0.01, 0.03, 0.06, 0.09};
  return levels;
}

std::string levelConfigFile(double loss) {
  char name[32];
  std::snprintf(name, sizeof name, "config_%g.json", loss * 100);
  return name;
}

Holdout remeasureFrontier(const TuneResult &result, const EvaluateFn &evaluate,
                          unsigned workers, InputSet set,
                          const MeasureOrder *order) {
  // The exact configuration is measured first and last, and its time is
  // the median of both measurements' samples: a machine whose speed drifts
  // during the re-measurement shifts every speedup less. When it is on the
  // frontier (it usually is) its last measurement is that point's.
  const Config &exact = result.evaluations[0].config;
  Holdout h;
  Measurement first = evaluate(exact, set);
  if (!first.ok()) {
    h.baseline = first;
    return h;
  }
  size_t n = result.frontier.size();
  Measurement unmeasured;
  unmeasured.status = EvalStatus::Unmeasured;
  h.frontier.assign(n, unmeasured);
  h.baseline = first;
  std::vector<size_t> todo;
  auto take = [&](size_t i) {
    if (result.evaluations[result.frontier[i]].config != exact)
      todo.push_back(i);
  };
  if (order)
    std::for_each(order->points.begin(), order->points.end(), take);
  else
    for (size_t i = 0; i < n; ++i)
      take(i);
  unsigned w = std::max(1u, workers);
  for (size_t begin = 0; begin < todo.size(); begin += w) {
    if (order && order->enough && order->enough(h))
      break;
    std::vector<std::thread> threads;
    for (size_t k = begin; k < std::min(todo.size(), begin + w); ++k)
      threads.emplace_back([&, i = todo[k]] {
        h.frontier[i] =
            evaluate(result.evaluations[result.frontier[i]].config, set);
      });
    for (std::thread &t : threads)
      t.join();
  }
  Measurement last = evaluate(exact, set);
  for (size_t i = 0; i < n; ++i)
    if (result.evaluations[result.frontier[i]].config == exact)
      h.frontier[i] = last;
  if (last.ok()) {
    auto samples = [](const Measurement &m) {
      return m.samples.empty() ? std::vector<double>{m.time} : m.samples;
    };
    h.baseline.samples = samples(first);
    for (double t : samples(last))
      h.baseline.samples.push_back(t);
    h.baseline.time = median(h.baseline.samples);
  }
  return h;
}

double speedupAt(double baselineTime, const std::vector<Measurement> &points,
                 double loss) {
  double best = 1;
  for (const Measurement &m : points)
    if (m.ok() && m.qos >= 1 - loss - 1e-12 && m.time > 0)
      best = std::max(best, baselineTime / m.time);
  return best;
}

std::optional<PairedQos> pairedQos(const Measurement &exact,
                                   const Measurement &m) {
  if (!exact.ok() || !m.ok() || exact.detail.empty() || m.detail.empty())
    return std::nullopt;
  Paired p;
  std::string ignored;
  if (!pairScores(exact.detail, m.detail, p, ignored) || p.exactSum() <= 0)
    return std::nullopt;
  return PairedQos{p.approxSum() / p.exactSum(),
                   p.approxSum() / double(p.inputs()), p.inputs()};
}

namespace {

/// Frontier point `point`'s speedup over exact on the calibration set (its
/// time 0: infinite, as a failed measurement never reaches a certificate).
double calibrationSpeedup(const Certification &c, size_t point) {
  return c.measured.baseline.time / c.measured.frontier[point].time;
}

std::string fmt(const char *format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string xmlEscape(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

/// A number for JSON (null if not finite: JSON has no inf or nan).
std::string num(double v) { return std::isfinite(v) ? fmt("%.6g", v) : "null"; }

std::string configJson(const Config &c) {
  std::string s = "{";
  for (const auto &[name, value] : c)
    s += (s.size() > 1 ? ", " : "") + jsonString(name) + ": " +
         std::to_string(value);
  return s + "}";
}

std::string levelName(double loss) { return fmt("%g", loss * 100); }

/// `name=value, ...` of a configuration, for a line of text.
std::string configText(const Config &c) {
  std::string s;
  for (const auto &[name, value] : c)
    s += (s.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return s;
}

/// A measurement as JSON: time, QoS and speedup over `baseTime`, and its
/// uncapped relative QoS and accuracy when it has per-input scores.
std::string measurementJson(const Measurement &m, double baseTime,
                            const Measurement &exact) {
  if (!m.ok())
    return "{\"status\": " + jsonString(statusName(m.status)) + "}";
  std::string j = "{\"time_s\": " + num(m.time) + ", \"qos\": " + num(m.qos) +
                  ", \"speedup\": " + num(baseTime / m.time);
  if (auto q = pairedQos(exact, m))
    j += ", \"relative_qos\": " + num(q->relative) + ", \"accuracy\": " +
         num(q->accuracy) + ", \"inputs\": " + std::to_string(q->inputs);
  return j + "}";
}

/// A round tick step (1, 2 or 5 times a power of ten) giving about five
/// ticks up to `max`.
double tickStep(double max) {
  double raw = max / 5, p = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw)
      return m * p;
  return 10 * p;
}

} // namespace

std::vector<Measurement> Report::tuningPoints() const {
  std::vector<Measurement> points;
  for (const Evaluation &e : result->evaluations)
    if (e.result.ok())
      points.push_back(e.result);
  return points;
}

double Report::tuningSpeedup(double loss) const {
  double s = speedupAt(result->evaluations[0].result.time, tuningPoints(), loss);
  return result->withinNoise(s) ? 1.0 : s;
}

std::optional<double> Report::evaluationSpeedup(double loss) const {
  if (!holdout || !holdout->baseline.ok())
    return std::nullopt;
  return speedupAt(holdout->baseline.time, holdout->frontier, loss);
}

LevelPick Report::pick(double loss) const {
  LevelPick p;
  p.loss = loss;
  if (certification) {
    p.certified = true;
    const LevelCertificate *c = certificate(loss);
    if (c && c->pick >= 0) {
      size_t point = certification->order[size_t(c->pick)];
      double speedup = calibrationSpeedup(*certification, point);
      if (speedup <= 1)
        p.slowerCertified = speedup;
      else
        p.point = long(point);
    }
  } else {
    const Config &exact = result->evaluations[0].config;
    for (size_t i = 0; i < result->frontier.size(); ++i) {
      const Evaluation &e = result->evaluations[result->frontier[i]];
      if (e.result.qos >= 1 - loss - 1e-12) {
        if (e.config != exact)
          p.point = long(i);
        break;
      }
    }
  }
  // No faster than the exact configuration beyond its measured noise: no
  // speedup to deploy.
  if (p.point >= 0) {
    double speedup = result->evaluations[0].result.time /
                     result->evaluations[result->frontier[size_t(p.point)]].result.time;
    if (result->withinNoise(speedup)) {
      p.withinNoise = speedup;
      p.point = -1;
    }
  }
  return p;
}

const LevelCertificate *Report::certificate(double loss) const {
  if (!certification)
    return nullptr;
  for (const LevelCertificate &c : certification->levels)
    if (std::fabs(c.level - loss) < 1e-9)
      return &c;
  return nullptr;
}

std::string Report::dominatedNote() const {
  std::string note;
  auto check = [&](const char *set, const Measurement &exact,
                   const std::vector<Measurement> &points) {
    long most = -1;
    double best = 1 + 1e-12;
    for (size_t i = 0; i < points.size(); ++i)
      if (auto q = pairedQos(exact, points[i]); q && q->relative > best) {
        best = q->relative;
        most = long(i);
      }
    if (most < 0)
      return;
    PairedQos q = *pairedQos(exact, points[size_t(most)]);
    PairedQos e = *pairedQos(exact, exact);
    char head[300];
    std::snprintf(head, sizeof head,
                  "exact configuration dominated on the %s set: a frontier "
                  "point (speedup %.2fx) is more accurate than exact, relative "
                  "QoS %.3f (accuracy %.4g against %.4g, %zu inputs): ",
                  set, exact.time / points[size_t(most)].time, q.relative,
                  q.accuracy, e.accuracy, q.inputs);
    note += head +
            configText(
                result->evaluations[result->frontier[size_t(most)]].config) +
            "\n";
  };
  std::vector<Measurement> tuningFront;
  for (size_t i : result->frontier)
    tuningFront.push_back(result->evaluations[i].result);
  check("tuning", result->evaluations[0].result, tuningFront);
  if (certification)
    check("calibration", certification->measured.baseline,
          certification->measured.frontier);
  if (holdout)
    check("evaluation", holdout->baseline, holdout->frontier);
  return note;
}

std::string Report::paretoCsv() const {
  double base = result->evaluations[0].result.time;
  std::string csv = "time_s,qos,speedup";
  if (holdout)
    csv += ",eval_time_s,eval_qos,eval_speedup";
  for (const TunableParam &p : params->params)
    csv += "," + p.name;
  csv += "\n";
  for (size_t i = 0; i < result->frontier.size(); ++i) {
    const Evaluation &e = result->evaluations[result->frontier[i]];
    csv += num(e.result.time) + "," + num(e.result.qos) + "," +
           num(base / e.result.time);
    if (holdout) {
      const Measurement &m = holdout->frontier[i];
      if (m.ok() && holdout->baseline.ok())
        csv += "," + num(m.time) + "," + num(m.qos) + "," +
               num(holdout->baseline.time / m.time);
      else
        csv += ",,,"; // failed on the evaluation set
    }
    for (const TunableParam &p : params->params) {
      auto it = e.config.find(p.name);
      csv += "," + std::to_string(it == e.config.end() ? p.current : it->second);
    }
    csv += "\n";
  }
  return csv;
}

std::string Report::plotSvg() const {
  const double W = 720, H = 460, left = 70, right = 20, top = 40, bottom = 60;
  double base = result->evaluations[0].result.time;
  struct Dot {
    double loss, speedup;
  };
  std::vector<Dot> all, front, held;
  // Only positive times give a speedup (an in-process evaluator may report
  // 0); an infinite one would stretch the axes forever.
  for (const Evaluation &e : result->evaluations)
    if (e.result.ok() && e.result.time > 0)
      all.push_back({(1 - e.result.qos) * 100, base / e.result.time});
  for (size_t i : result->frontier) {
    const Measurement &m = result->evaluations[i].result;
    front.push_back({(1 - m.qos) * 100, base / m.time});
  }
  if (holdout && holdout->baseline.ok())
    for (const Measurement &m : holdout->frontier)
      if (m.ok())
        held.push_back({(1 - m.qos) * 100, holdout->baseline.time / m.time});
  double maxLoss = (1 - qosMin) * 100, maxSpeed = 1;
  for (const std::vector<Dot> *set : {&all, &held})
    for (const Dot &d : *set) {
      maxLoss = std::max(maxLoss, d.loss);
      maxSpeed = std::max(maxSpeed, d.speedup);
    }
  maxLoss = std::max(maxLoss * 1.05, 1.0);
  maxSpeed *= 1.1;
  if (!std::isfinite(maxLoss) || !std::isfinite(maxSpeed))
    maxLoss = 100, maxSpeed = 1;
  auto X = [&](double loss) { return left + loss / maxLoss * (W - left - right); };
  auto Y = [&](double s) { return H - bottom - s / maxSpeed * (H - top - bottom); };

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    num(W) + "\" height=\"" + num(H) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + num(W / 2) + "\" y=\"22\" text-anchor=\"middle\" "
         "font-size=\"14\">" +
         xmlEscape(space.substr(space.find_last_of('/') + 1)) + " (" + mode +
         "): speedup vs QoS loss</text>\n";
  // Axes with five ticks each.
  svg += "<line x1=\"" + num(left) + "\" y1=\"" + num(H - bottom) + "\" x2=\"" +
         num(W - right) + "\" y2=\"" + num(H - bottom) + "\" stroke=\"black\"/>\n";
  svg += "<line x1=\"" + num(left) + "\" y1=\"" + num(top) + "\" x2=\"" +
         num(left) + "\" y2=\"" + num(H - bottom) + "\" stroke=\"black\"/>\n";
  for (double step = tickStep(maxLoss), lx = 0; lx <= maxLoss; lx += step)
    svg += "<text x=\"" + num(X(lx)) + "\" y=\"" + num(H - bottom + 18) +
           "\" text-anchor=\"middle\">" + fmt("%.3g", lx) + "</text>\n";
  for (double step = tickStep(maxSpeed), sy = 0; sy <= maxSpeed; sy += step)
    svg += "<text x=\"" + num(left - 8) + "\" y=\"" + num(Y(sy) + 4) +
           "\" text-anchor=\"end\">" + fmt("%.3g", sy) + "</text>\n";
  svg += "<text x=\"" + num(W / 2) + "\" y=\"" + num(H - 15) +
         "\" text-anchor=\"middle\">QoS loss (%)</text>\n";
  svg += "<text transform=\"rotate(-90)\" x=\"" + num(-(H / 2)) +
         "\" y=\"20\" text-anchor=\"middle\">speedup over exact (x)</text>\n";
  // The QoS bound and speedup 1.
  svg += "<line x1=\"" + num(X((1 - qosMin) * 100)) + "\" y1=\"" + num(top) +
         "\" x2=\"" + num(X((1 - qosMin) * 100)) + "\" y2=\"" +
         num(H - bottom) + "\" stroke=\"#888\" stroke-dasharray=\"4 4\"/>\n";
  svg += "<line x1=\"" + num(left) + "\" y1=\"" + num(Y(1)) + "\" x2=\"" +
         num(W - right) + "\" y2=\"" + num(Y(1)) +
         "\" stroke=\"#ccc\" stroke-dasharray=\"2 3\"/>\n";
  for (const Dot &d : all)
    svg += "<circle class=\"point\" cx=\"" + num(X(d.loss)) + "\" cy=\"" +
           num(Y(d.speedup)) + "\" r=\"2.5\" fill=\"#999\"/>\n";
  // The line joins the Pareto points (front ascends in time); a dynamic
  // run's static points may lie under it (runFrontier).
  std::string path;
  double lowest = INFINITY;
  for (const Dot &d : front)
    if (d.loss < lowest) {
      lowest = d.loss;
      path += (path.empty() ? "" : " ") + num(X(d.loss)) + "," + num(Y(d.speedup));
    }
  svg += "<polyline class=\"frontier\" points=\"" + path +
         "\" fill=\"none\" stroke=\"#c00\" stroke-width=\"1.5\"/>\n";
  for (const Dot &d : front)
    svg += "<circle class=\"frontier-point\" cx=\"" + num(X(d.loss)) +
           "\" cy=\"" + num(Y(d.speedup)) + "\" r=\"3.5\" fill=\"#c00\"/>\n";
  for (const Dot &d : held)
    svg += "<rect class=\"evaluation-point\" x=\"" + num(X(d.loss) - 3) +
           "\" y=\"" + num(Y(d.speedup) - 3) +
           "\" width=\"6\" height=\"6\" fill=\"none\" stroke=\"#06c\"/>\n";
  // Legend.
  double ly = top + 10;
  svg += "<circle cx=\"" + num(W - 190) + "\" cy=\"" + num(ly) +
         "\" r=\"2.5\" fill=\"#999\"/><text x=\"" + num(W - 180) + "\" y=\"" +
         num(ly + 4) + "\">all evaluations (tuning set)</text>\n";
  svg += "<circle cx=\"" + num(W - 190) + "\" cy=\"" + num(ly + 18) +
         "\" r=\"3.5\" fill=\"#c00\"/><text x=\"" + num(W - 180) + "\" y=\"" +
         num(ly + 22) + "\">Pareto frontier</text>\n";
  if (!held.empty())
    svg += "<rect x=\"" + num(W - 193) + "\" y=\"" + num(ly + 33) +
           "\" width=\"6\" height=\"6\" fill=\"none\" stroke=\"#06c\"/><text x=\"" +
           num(W - 180) + "\" y=\"" + num(ly + 40) +
           "\">frontier on the evaluation set</text>\n";
  return svg + "</svg>\n";
}

namespace {

/// One certified level, as the table and summary.json show it.
struct CertifiedRow {
  double level = 0;
  long point = -1; // frontier index; -1: the exact configuration
  double speedup = 1, estimate = 0, upper = 0;
  size_t inputs = 0, tested = 0;
  std::string stoppedAt;
  /// On the evaluation (test) set: speedup and loss.
  std::optional<std::pair<double, double>> test;
};

std::vector<CertifiedRow> certifiedRows(const Report &r) {
  std::vector<CertifiedRow> rows;
  if (!r.certification)
    return rows;
  const Certification &c = *r.certification;
  for (const LevelCertificate &level : c.levels) {
    CertifiedRow row;
    row.level = level.level;
    row.tested = level.tested;
    row.stoppedAt = level.stoppedAt;
    row.inputs = c.measured.baseline.detail.size();
    if (level.pick >= 0) {
      size_t k = size_t(level.pick);
      row.point = long(c.order[k]);
      const Paired &p = *c.candidates[k].paired;
      row.speedup = calibrationSpeedup(c, c.order[k]);
      row.estimate = p.loss();
      row.upper = lossUpperBound(p, c.delta, c.bound);
      row.inputs = p.inputs();
    }
    if (r.holdout && r.holdout->baseline.ok()) {
      const Measurement &base = r.holdout->baseline;
      const Measurement &m =
          row.point < 0 ? base : r.holdout->frontier[size_t(row.point)];
      if (m.ok()) {
        auto q = pairedQos(base, m);
        row.test = {base.time / m.time, q ? 1 - q->relative : 1 - m.qos};
      }
    }
    rows.push_back(row);
  }
  return rows;
}

} // namespace

std::string Report::speedupTable() const {
  std::string t = "QoS loss   speedup (tuning set)   speedup (evaluation set)   gap\n";
  for (double loss : lossLevels()) {
    double s = tuningSpeedup(loss);
    std::optional<double> e = evaluationSpeedup(loss);
    char line[160];
    if (e)
      std::snprintf(line, sizeof line, "<= %-5s   %8.2fx               %8.2fx                  %+.1f%%\n",
                    (levelName(loss) + "%").c_str(), s, *e,
                    (*e - s) / s * 100);
    else
      std::snprintf(line, sizeof line, "<= %-5s   %8.2fx               %8s                  %s\n",
                    (levelName(loss) + "%").c_str(), s, "-", "-");
    t += line;
  }
  if (double noise = result->baselineNoise(); noise >= 0) {
    t += "\nthe exact configuration: " +
         std::to_string(result->evaluations[0].result.samples.size()) +
         " time samples on the tuning set, its median known to within " +
         fmt("%.1f%%", noise * 100) +
         " (95% interval; the measured noise: speedups within it are reported as "
         "1.00x and not deployed)";
    std::string within;
    for (double loss : lossLevels())
      if (LevelPick p = pick(loss); p.withinNoise > 0)
        within += (within.empty() ? "" : ", ") + ("<= " + levelName(loss) + "%") +
                  fmt(" (%.2fx)", p.withinNoise);
    t += within.empty() ? "\n" : "; within it: " + within + "\n";
  }
  if (certification) {
    const Certification &c = *certification;
    t += "\ncertified on the calibration set (" +
         std::to_string(c.measured.baseline.detail.size()) + " inputs, delta " +
         num(c.delta) + ", " + boundName(c.bound) +
         " bound; docs/tuning.md#certification):\n";
    t += "QoS loss   speedup   loss (estimate)   loss (upper bound)   "
         "evaluation set (speedup, loss)\n";
    for (const CertifiedRow &row : certifiedRows(*this)) {
      char line[400];
      std::string test =
          row.test ? fmt("%.2fx", row.test->first) + ", " +
                         fmt("%.1f%%", row.test->second * 100)
                   : "-";
      // The reasons and the test column are appended whole: a message
      // (a failing command's) may be longer than any buffer.
      if (row.point < 0) {
        std::snprintf(line, sizeof line,
                      "<= %-5s   %6.2fx   exact configuration: no candidate "
                      "certified (",
                      (levelName(row.level) + "%").c_str(), 1.0);
        t += line + (row.stoppedAt.empty() ? "no candidate" : row.stoppedAt) +
             ")\n";
      } else {
        std::snprintf(line, sizeof line, "<= %-5s   %6.2fx   %13.2f%%   %16.2f%%   ",
                      (levelName(row.level) + "%").c_str(), row.speedup,
                      row.estimate * 100, row.upper * 100);
        t += line + test +
             (pick(row.level).slowerCertified > 0
                  ? "   (no faster than exact here: the exact "
                    "configuration is deployed)"
                  : "") +
             "\n";
      }
    }
  }
  std::string dominated = dominatedNote();
  if (!dominated.empty())
    t += "\n" + dominated;
  return t;
}

std::string Report::summaryJson() const {
  const TuneResult &r = *result;
  double base = r.evaluations[0].result.time;
  std::string j = "{\n";
  j += "  \"space\": " + jsonString(space) + ",\n";
  j += "  \"mode\": " + jsonString(mode) + ",\n";
  j += "  \"command\": " + jsonString(command) + ",\n";
  j += "  \"qos_min\": " + num(qosMin) + ",\n";
  j += "  \"seed\": " + std::to_string(seed) + ",\n";
  j += "  \"config_space\": " + num(spaceSize) + ",\n";
  j += "  \"evaluations\": " + std::to_string(r.evaluations.size() - 1) + ",\n";
  j += "  \"new_evaluations\": " + std::to_string(r.newEvaluations) + ",\n";
  j += "  \"failed\": " + std::to_string(r.failed) + ",\n";
  j += "  \"screened\": " + std::to_string(r.screened) + ",\n";
  j += std::string("  \"exhaustive\": ") + (r.exhaustive ? "true" : "false") + ",\n";
  j += "  \"tuning_time_s\": " + num(r.seconds) + ",\n";
  j += "  \"stop_reason\": " + jsonString(r.stopReason) + ",\n";
  j += "  \"baseline\": {\"tuning\": {\"time_s\": " + num(base) + ", \"samples\": " +
       std::to_string(r.evaluations[0].result.samples.size()) + ", \"noise\": " +
       (r.baselineNoise() >= 0 ? num(r.baselineNoise()) : std::string("null")) + "}";
  if (holdout && holdout->baseline.ok())
    j += ", \"evaluation\": {\"time_s\": " + num(holdout->baseline.time) + "}";
  j += "},\n";
  if (r.best >= 0) {
    const Evaluation &b = r.evaluations[size_t(r.best)];
    j += "  \"best\": {\"time_s\": " + num(b.result.time) + ", \"qos\": " +
         num(b.result.qos) + ", \"speedup\": " + num(base / b.result.time) +
         ", \"config\": " + configJson(b.config) + "},\n";
  } else {
    j += "  \"best\": null,\n";
  }
  auto levels = [&](bool evaluation) {
    std::string s = "{";
    for (double loss : lossLevels()) {
      s += (s.size() > 1 ? ", " : "") + jsonString(levelName(loss)) + ": ";
      if (evaluation)
        s += evaluationSpeedup(loss) ? num(*evaluationSpeedup(loss)) : "null";
      else
        s += num(tuningSpeedup(loss));
    }
    return s + "}";
  };
  j += "  \"speedup\": {\"tuning\": " + levels(false) + ", \"evaluation\": " +
       (evaluationSpeedup(0.01) ? levels(true) : std::string("null")) + "},\n";
  j += "  \"frontier\": [";
  for (size_t i = 0; i < r.frontier.size(); ++i) {
    const Evaluation &e = r.evaluations[r.frontier[i]];
    j += std::string(i ? ",\n" : "\n") + "    {\"time_s\": " + num(e.result.time) +
         ", \"qos\": " + num(e.result.qos) + ", \"speedup\": " +
         num(base / e.result.time) + ", \"static\": " +
         (isStatic(*params, e.config) ? "true" : "false");
    if (auto q = pairedQos(r.evaluations[0].result, e.result))
      j += ", \"relative_qos\": " + num(q->relative) + ", \"accuracy\": " +
           num(q->accuracy);
    if (holdout && holdout->baseline.ok())
      j += ", \"evaluation\": " +
           measurementJson(holdout->frontier[i], holdout->baseline.time,
                           holdout->baseline);
    if (certification)
      j += ", \"calibration\": " +
           measurementJson(certification->measured.frontier[i],
                           certification->measured.baseline.time,
                           certification->measured.baseline);
    j += ", \"config\": " + configJson(e.config) + "}";
  }
  j += r.frontier.empty() ? "],\n" : "\n  ],\n";
  // Each level's deployment pick: scripts read it here.
  const Config &exact = r.evaluations[0].config;
  auto pickJson = [&](double loss) {
    LevelPick p = pick(loss);
    const Config &c =
        p.point < 0 ? exact : r.evaluations[r.frontier[size_t(p.point)]].config;
    const Measurement &m = p.point < 0
                               ? r.evaluations[0].result
                               : r.evaluations[r.frontier[size_t(p.point)]].result;
    std::string s = "{\"basis\": " +
                    jsonString(p.certified ? "certified" : "tuning") +
                    ", \"exact\": " + (p.point < 0 ? "true" : "false") +
                    (p.withinNoise > 0 ? ", \"within_noise\": " + num(p.withinNoise) : "") +
                    (p.slowerCertified > 0
                         ? ", \"slower_on_calibration\": " + num(p.slowerCertified)
                         : "") +
                    ", \"tuning\": " + measurementJson(m, base, r.evaluations[0].result);
    if (holdout && holdout->baseline.ok())
      s += ", \"evaluation\": " +
           measurementJson(p.point < 0 ? holdout->baseline
                                       : holdout->frontier[size_t(p.point)],
                           holdout->baseline.time, holdout->baseline);
    return s + ", \"file\": " + jsonString(levelConfigFile(loss)) +
           ", \"config\": " + configJson(c) + "}";
  };
  j += "  \"picks\": {";
  for (double loss : lossLevels())
    j += std::string(loss == lossLevels().front() ? "" : ", ") +
         jsonString(levelName(loss)) + ": " + pickJson(loss);
  j += "},\n";
  if (certification) {
    const Certification &c = *certification;
    j += "  \"certification\": {\"delta\": " + num(c.delta) +
         ", \"bound\": " + jsonString(boundName(c.bound)) + ", \"inputs\": " +
         std::to_string(c.measured.baseline.detail.size()) +
         ", \"baseline\": " +
         measurementJson(c.measured.baseline, c.measured.baseline.time,
                         c.measured.baseline) +
         ", \"tested\": " + std::to_string(c.order.size()) + "},\n";
    j += "  \"certified\": {";
    bool first = true;
    for (const CertifiedRow &row : certifiedRows(*this)) {
      bool isBound = std::none_of(lossLevels().begin(), lossLevels().end(),
                                  [&](double l) { return std::fabs(l - row.level) < 1e-9; });
      j += std::string(first ? "\n" : ",\n") + "    " +
           jsonString(isBound ? "qos_min" : levelName(row.level)) +
           ": {\"level\": " + num(row.level) + ", \"exact\": " +
           (row.point < 0 ? "true" : "false") + ", \"config\": " +
           configJson(row.point < 0 ? exact
                                    : r.evaluations[r.frontier[size_t(row.point)]].config) +
           ", \"speedup\": " + num(row.speedup) + ", \"loss_estimate\": " +
           num(row.estimate) + ", \"loss_upper\": " + num(row.upper) +
           ", \"inputs\": " + std::to_string(row.inputs) + ", \"delta\": " +
           num(c.delta) + ", \"tested\": " + std::to_string(row.tested) +
           ", \"stopped_at\": " + jsonString(row.stoppedAt) + ", \"test\": " +
           (row.test ? "{\"speedup\": " + num(row.test->first) +
                           ", \"loss\": " + num(row.test->second) + "}"
                     : std::string("null")) +
           "}";
      first = false;
    }
    j += "\n  },\n";
  } else {
    j += "  \"certification\": null,\n  \"certified\": null,\n";
  }
  j += "  \"exact_dominated\": [";
  std::string note = dominatedNote();
  for (size_t pos = 0, n = 0; pos < note.size(); ++n) {
    size_t end = std::min(note.find('\n', pos), note.size());
    j += (n ? ", " : "") + jsonString(note.substr(pos, end - pos));
    pos = end + 1;
  }
  return j + "]\n}\n";
}

bool readParetoCsv(const std::string &path, const Space &space,
                   std::vector<Config> &configs, std::vector<size_t> &lines,
                   std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  auto split = [](const std::string &line) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
      cells.push_back(cell);
    if (!line.empty() && line.back() == ',')
      cells.push_back("");
    return cells;
  };
  static const std::set<std::string> metrics = {
      "time_s", "qos", "speedup", "eval_time_s", "eval_qos", "eval_speedup"};
  std::string line;
  if (!std::getline(in, line)) {
    error = path + ":1: empty file (expected the header of a pareto.csv)";
    return false;
  }
  std::vector<std::string> header = split(line);
  for (const std::string &column : header)
    if (!metrics.count(column) && !space.find(column)) {
      error = path + ":1: column '" + column +
              "' is not a parameter of this space (a pareto.csv of another "
              "program?)";
      return false;
    }
  for (size_t lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty())
      continue;
    std::vector<std::string> cells = split(line);
    if (cells.size() != header.size()) {
      error = path + ":" + std::to_string(lineNo) + ": " +
              std::to_string(cells.size()) + " values for " +
              std::to_string(header.size()) + " columns";
      return false;
    }
    Config c;
    for (size_t i = 0; i < header.size(); ++i) {
      if (metrics.count(header[i]))
        continue;
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(cells[i].c_str(), &end, 10);
      if (cells[i].empty() || *end || errno) {
        error = path + ":" + std::to_string(lineNo) + ": " + header[i] +
                " = '" + cells[i] + "' is not an integer";
        return false;
      }
      c[header[i]] = v;
    }
    configs.push_back(std::move(c));
    lines.push_back(lineNo);
  }
  return true;
}

} // namespace approx::tune
