//===- Certify.cpp - statistical guarantees on a configuration's loss -----===//
#include "approx/Tuner/Certify.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace approx::tune {

const char *boundName(BoundKind kind) {
  switch (kind) {
  case BoundKind::Betting:
    return "betting";
  case BoundKind::HoeffdingBentkus:
    return "hoeffding-bentkus";
  }
  return "";
}

bool parseBound(const std::string &name, BoundKind &kind) {
  for (BoundKind k : {BoundKind::Betting, BoundKind::HoeffdingBentkus})
    if (name == boundName(k)) {
      kind = k;
      return true;
    }
  return false;
}

double Paired::exactSum() const {
  double s = 0;
  for (double v : exact)
    s += v;
  return s;
}

double Paired::approxSum() const {
  double s = 0;
  for (double v : approx)
    s += v;
  return s;
}

double Paired::loss() const {
  double e = exactSum();
  return e > 0 ? 1 - approxSum() / e : 0;
}

bool pairScores(const std::vector<InputScore> &exact,
                const std::vector<InputScore> &approx, Paired &paired,
                std::string &error) {
  std::map<std::string, double> byId;
  for (const InputScore &s : approx)
    byId[s.id] = s.score;
  paired = Paired();
  for (const InputScore &s : exact) {
    auto it = byId.find(s.id);
    if (it == byId.end()) {
      error = "no score for input '" + s.id +
              "', which the exact configuration has";
      return false;
    }
    paired.exact.push_back(s.score);
    paired.approx.push_back(it->second);
  }
  if (approx.size() != exact.size()) {
    std::map<std::string, double> exactIds;
    for (const InputScore &s : exact)
      exactIds[s.id] = s.score;
    for (const InputScore &s : approx)
      if (!exactIds.count(s.id)) {
        error = "a score for input '" + s.id +
                "', which the exact configuration does not have";
        return false;
      }
  }
  return true;
}

namespace {

/// The paired outcome whose mean is positive exactly when the loss exceeds
/// `level`: z = exact * (1 - level) - approx, in [-1, 1 - level].
std::vector<double> outcomes(const Paired &p, double level) {
  std::vector<double> z(p.inputs());
  for (size_t i = 0; i < z.size(); ++i)
    z[i] = p.exact[i] * (1 - level) - p.approx[i];
  return z;
}

/// Testing by betting against "E[z] >= 0": the capital multiplies by
/// (1 + lambda * y) per input, y = -z the payoff of betting that the loss is
/// below the level. lambda is chosen by online Newton steps on the log
/// capital (Cutkosky & Orabona 2018, as Shekhar & Ramdas 2023 bet), from
/// the inputs seen so far only (predictable), in [0, 3/4 of the largest bet
/// that keeps the capital positive]; its growth is within O(log n) of the
/// best constant bet in hindsight, also for the skewed payoffs of paired
/// 0/1 outcomes, where a plug-in (aGRAPA) stake overbets and loses.
double bettingPValue(const std::vector<double> &z, double level) {
  const double cap = 0.75 / (1 - level), step = 2 / (2 - std::log(3.0));
  double lambda = 0, sumSq = 1, capital = 1, best = 1;
  for (double zi : z) {
    double y = -zi;
    capital *= 1 + lambda * y;
    best = std::max(best, capital);
    double gradient = -y / (1 + lambda * y);
    sumSq += gradient * gradient;
    lambda = std::clamp(lambda - step * gradient / sumSq, 0.0, cap);
  }
  return std::min(1.0, 1 / best);
}

/// Hoeffding-Bentkus against "E[w] >= m0" for z rescaled to w in [0, 1].
/// z lies in [-1, 1 - level]; when the exact configuration scores 1 on
/// every input (a kernel's QoS against its own output) in [-level,
/// 1 - level], where w = 1 - score: the loss itself, as Learn-then-Test
/// bounds it.
double hoeffdingBentkusPValue(const std::vector<double> &z, double level,
                              bool exactAlwaysOne) {
  size_t n = z.size();
  double lo = exactAlwaysOne ? -level : -1, hi = 1 - level;
  double m0 = -lo / (hi - lo), mean = 0;
  for (double zi : z)
    mean += (zi - lo) / (hi - lo);
  mean /= double(n);
  if (mean >= m0)
    return 1;
  auto kl = [](double a, double b) {
    double s = 0;
    if (a > 0)
      s += a * std::log(a / b);
    if (a < 1)
      s += (1 - a) * std::log((1 - a) / (1 - b));
    return s;
  };
  double hoeffding = std::exp(-double(n) * kl(mean, m0));
  double k = std::ceil(double(n) * mean - 1e-9);
  double bentkus =
      std::exp(1.0 + logBinomialCdf(n, m0, size_t(std::max(0.0, k))));
  return std::min({1.0, hoeffding, bentkus});
}

} // namespace

double logBinomialCdf(size_t n, double p, size_t k) {
  if (k >= n)
    return 0;
  double logP = std::log(p), logQ = std::log1p(-p);
  double lognf = std::lgamma(double(n) + 1);
  double acc = -INFINITY;
  for (size_t i = 0; i <= k; ++i) {
    double term = lognf - std::lgamma(double(i) + 1) -
                  std::lgamma(double(n - i) + 1) + double(i) * logP +
                  double(n - i) * logQ;
    double hi = std::max(acc, term);
    acc = hi + std::log(std::exp(acc - hi) + std::exp(term - hi));
  }
  return acc;
}

double lossPValue(const Paired &paired, double level, BoundKind kind) {
  if (paired.inputs() == 0 || !(level < 1) || paired.exactSum() <= 0)
    return 1;
  std::vector<double> z = outcomes(paired, level);
  if (kind == BoundKind::Betting)
    return bettingPValue(z, level);
  bool exactAlwaysOne = std::all_of(paired.exact.begin(), paired.exact.end(),
                                    [](double e) { return e == 1; });
  return hoeffdingBentkusPValue(z, level, exactAlwaysOne);
}

double lossUpperBound(const Paired &paired, double delta, BoundKind kind) {
  if (paired.inputs() == 0 || paired.exactSum() <= 0)
    return 1;
  double start = std::floor(std::max(-1.0, paired.loss()) * 1000) / 1000;
  for (int step = 0;; ++step) {
    double level = start + step / 1000.0;
    if (level >= 1)
      return 1;
    if (lossPValue(paired, level, kind) <= delta)
      return level;
  }
}

size_t minimumInputs(double level, double delta, BoundKind kind,
                     size_t most) {
  auto passes = [&](size_t n) {
    Paired p;
    p.exact.assign(n, 1);
    p.approx.assign(n, 1);
    return lossPValue(p, level, kind) <= delta;
  };
  // More agreeing inputs never raise the p-value: search by doubling, then
  // bisect.
  size_t hi = 1;
  while (!passes(hi)) {
    if (hi >= most)
      return 0;
    hi = std::min(most, 2 * hi);
  }
  size_t lo = hi / 2; // fails (or 0)
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    (passes(mid) ? hi : lo) = mid;
  }
  return hi;
}

std::vector<size_t> thinCandidates(const std::vector<double> &losses,
                                   const std::vector<double> &times,
                                   const std::vector<double> &levels,
                                   size_t most) {
  std::vector<size_t> all(losses.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  if (most == 0 || levels.empty())
    return all;
  // Only the candidates within the loosest level on the tuning set meet a
  // target: with at most `most` of them there is nothing to thin.
  double loosest = *std::max_element(levels.begin(), levels.end());
  std::vector<bool> kept(losses.size(), false);
  std::vector<size_t> within;
  for (size_t i = 0; i < losses.size(); ++i)
    if (losses[i] <= loosest + 1e-12)
      within.push_back(i);
  if (within.size() <= most)
    return within;
  // The most accurate of them is always kept: the sequence starts there,
  // and a level whose fastest candidate fails falls back on it.
  kept[within.front()] = true;
  std::vector<double> targets = levels;
  for (size_t k = 1; k <= most; ++k)
    targets.push_back(loosest * double(k) / double(most));
  for (double target : targets) {
    long fastest = -1;
    for (size_t i = 0; i < losses.size(); ++i)
      if (losses[i] <= target + 1e-12 &&
          (fastest < 0 || times[i] < times[size_t(fastest)]))
        fastest = long(i);
    if (fastest >= 0)
      kept[size_t(fastest)] = true;
  }
  std::vector<size_t> chosen;
  for (size_t i = 0; i < kept.size(); ++i)
    if (kept[i])
      chosen.push_back(i);
  return chosen;
}

bool passes(const Candidate &candidate, double level, double delta,
            BoundKind kind) {
  return candidate.paired &&
         lossPValue(*candidate.paired, level, kind) <= delta;
}

LevelCertificate fixedSequence(const std::vector<Candidate> &candidates,
                               double level, double delta, BoundKind kind) {
  LevelCertificate c;
  c.level = level;
  c.delta = delta;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate &k = candidates[i];
    ++c.tested;
    if (!k.paired) {
      c.stoppedAt = "candidate " + std::to_string(i + 1) + ": " + k.why;
      break;
    }
    if (!passes(k, level, delta, kind)) {
      double p = lossPValue(*k.paired, level, kind);
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "candidate %zu: loss %.4f on %zu inputs, p = %.3g > %g",
                    i + 1, k.paired->loss(), k.paired->inputs(), p, delta);
      c.stoppedAt = buf;
      break;
    }
    if (c.pick < 0 || k.time < candidates[size_t(c.pick)].time)
      c.pick = long(i);
  }
  // Too few inputs for this level at all: say so, rather than let the first
  // candidate's failure read as a finding about it.
  auto paired = std::find_if(candidates.begin(), candidates.end(),
                             [](const Candidate &k) { return k.paired.has_value(); });
  if (c.pick < 0 && paired != candidates.end()) {
    size_t inputs = paired->paired->inputs(),
           need = minimumInputs(level, delta, kind);
    if (inputs < need) {
      c.needed = need;
      char why[200];
      std::snprintf(why, sizeof why,
                    "%zu inputs cannot certify a loss of at most %g %% at "
                    "delta %g: even a configuration scoring 1 on every input, "
                    "as exact does, needs %zu (%s bound)",
                    inputs, level * 100, delta, need, boundName(kind));
      c.tooFewInputs = why;
      c.stoppedAt = c.tooFewInputs + "; " + c.stoppedAt;
    }
  }
  return c;
}

} // namespace approx::tune
