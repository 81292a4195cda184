//===- Metrics.cpp - QoS metrics of the paper -----------------------------===//
#include "approx/Tuner/Metrics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace approx::qos {

namespace {
bool allFinite(const std::vector<double> &v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}
/// Whether an approximate output can be scored against the exact one at
/// all: the same length and only finite values (a NaN or an infinity is no
/// approximation of anything).
bool comparable(const std::vector<double> &exact,
                const std::vector<double> &approx) {
  return exact.size() == approx.size() && allFinite(exact) && allFinite(approx);
}
} // namespace

double l2Accuracy(const std::vector<double> &exact,
                  const std::vector<double> &approx) {
  if (!comparable(exact, approx))
    return 0.0;
  double num = 0, den = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    double d = exact[i] - approx[i];
    num += d * d;
    den += exact[i] * exact[i];
  }
  if (den == 0)
    return num == 0 ? 1.0 : 0.0;
  return std::clamp(1.0 - std::sqrt(num) / std::sqrt(den), 0.0, 1.0);
}

double relativeErrorAccuracy(const std::vector<double> &exact,
                             const std::vector<double> &approx) {
  if (!comparable(exact, approx))
    return 0.0;
  if (exact.empty())
    return 1.0;
  double sum = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    double d = std::fabs(approx[i] - exact[i]);
    sum += exact[i] == 0 ? (d == 0 ? 0.0 : 1.0)
                         : std::min(1.0, d / std::fabs(exact[i]));
  }
  return std::clamp(1.0 - sum / double(exact.size()), 0.0, 1.0);
}

double missRateAccuracy(const std::vector<double> &exact,
                        const std::vector<double> &approx) {
  if (!comparable(exact, approx))
    return 0.0;
  if (exact.empty())
    return 1.0;
  size_t misses = 0;
  for (size_t i = 0; i < exact.size(); ++i)
    misses += exact[i] != approx[i];
  return 1.0 - double(misses) / double(exact.size());
}

double imageRmseAccuracy(const std::vector<double> &exact,
                         const std::vector<double> &approx, double range) {
  if (!comparable(exact, approx))
    return 0.0;
  if (exact.empty())
    return 1.0;
  double sum = 0;
  for (size_t i = 0; i < exact.size(); ++i)
    sum += (approx[i] - exact[i]) * (approx[i] - exact[i]);
  return std::clamp(1.0 - std::sqrt(sum / double(exact.size())) / range, 0.0,
                    1.0);
}

namespace {

/// Minimum-cost perfect assignment of an n x n cost matrix (Hungarian
/// algorithm with potentials); returns row -> column.
std::vector<size_t> assign(const std::vector<double> &cost, size_t n) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1), v(n + 1), minv(n + 1);
  std::vector<size_t> p(n + 1, 0), way(n + 1, 0);
  std::vector<char> used(n + 1);
  for (size_t i = 1; i <= n; ++i) {
    p[0] = i;
    size_t j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      size_t i0 = p[j0], j1 = 0;
      double delta = inf;
      for (size_t j = 1; j <= n; ++j) {
        if (used[j])
          continue;
        double cur = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (size_t j = 0; j <= n; ++j) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      size_t j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  std::vector<size_t> rowToCol(n);
  for (size_t j = 1; j <= n; ++j)
    if (p[j])
      rowToCol[p[j] - 1] = j - 1;
  return rowToCol;
}

// NQ / SQuAD answer normalisation: lower case, ASCII punctuation removed,
// the articles a/an/the dropped, white space collapsed. Bytes of UTF-8
// sequences are letters.
std::string normalise(const std::string &s) {
  std::vector<std::string> words(1);
  for (unsigned char c : s) {
    if (c >= 0x80 || std::isalnum(c))
      words.back().push_back(char(std::tolower(c)));
    else if (!std::ispunct(c) && !words.back().empty())
      words.emplace_back();
  }
  std::string out;
  for (const std::string &w : words)
    if (!w.empty() && w != "a" && w != "an" && w != "the")
      out += (out.empty() ? "" : " ") + w;
  return out;
}

} // namespace

double matchedL2Accuracy(const std::vector<double> &exact,
                         const std::vector<double> &approx, size_t dim) {
  if (dim == 0 || exact.size() != approx.size() || exact.size() % dim ||
      !allFinite(exact) || !allFinite(approx))
    return 0.0;
  size_t k = exact.size() / dim;
  std::vector<double> cost(k * k);
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < k; ++j) {
      double c = 0;
      for (size_t d = 0; d < dim; ++d) {
        double x = approx[i * dim + d] - exact[j * dim + d];
        c += x * x;
      }
      cost[i * k + j] = c;
    }
  std::vector<size_t> match = assign(cost, k);
  std::vector<double> reordered(exact.size());
  for (size_t i = 0; i < k; ++i)
    for (size_t d = 0; d < dim; ++d)
      reordered[match[i] * dim + d] = approx[i * dim + d];
  return l2Accuracy(exact, reordered);
}

double rbo(const std::vector<std::string> &s, const std::vector<std::string> &t,
           double p) {
  size_t depth = std::min<size_t>(1000, std::max(s.size(), t.size()));
  if (depth == 0)
    return 1.0;
  std::unordered_set<std::string> seenS, seenT;
  size_t overlap = 0;
  double sum = 0, weight = 1;
  for (size_t d = 1; d <= depth; ++d) {
    if (d <= s.size()) {
      const std::string &x = s[d - 1];
      if (seenS.insert(x).second && seenT.count(x))
        ++overlap;
    }
    if (d <= t.size()) {
      const std::string &y = t[d - 1];
      if (seenT.insert(y).second && seenS.count(y))
        ++overlap;
    }
    sum += weight * double(overlap) / double(d);
    weight *= p;
  }
  double rboValue = (1 - p) * sum;
  double maximum = 1 - std::pow(p, double(depth));
  return std::clamp(rboValue / maximum, 0.0, 1.0);
}

double footrule(const std::vector<std::string> &s,
                const std::vector<std::string> &t) {
  size_t k = std::max(s.size(), t.size());
  if (k == 0)
    return 1.0;
  std::unordered_map<std::string, double> rs, rt;
  for (size_t i = 0; i < s.size(); ++i)
    rs.emplace(s[i], double(i + 1));
  for (size_t i = 0; i < t.size(); ++i)
    rt.emplace(t[i], double(i + 1));
  double missing = double(k + 1), distance = 0, maximum = 0;
  for (const auto &[item, r] : rs) {
    auto it = rt.find(item);
    distance += std::fabs(r - (it == rt.end() ? missing : it->second));
    maximum += missing - r;
  }
  for (const auto &[item, r] : rt) {
    if (!rs.count(item))
      distance += missing - r;
    maximum += missing - r;
  }
  return maximum == 0 ? 1.0 : std::clamp(1.0 - distance / maximum, 0.0, 1.0);
}

double answerContainment(const std::string &generated,
                         const std::vector<std::string> &references) {
  std::string g = " " + normalise(generated) + " ";
  for (const std::string &ref : references) {
    std::string r = normalise(ref);
    if (!r.empty() && g.find(" " + r + " ") != std::string::npos)
      return 1.0;
  }
  return 0.0;
}

double answerAccuracy(const std::vector<std::string> &generated,
                      const std::vector<std::vector<std::string>> &references) {
  if (generated.empty() || generated.size() != references.size())
    return 0.0;
  double sum = 0;
  for (size_t i = 0; i < generated.size(); ++i)
    sum += answerContainment(generated[i], references[i]);
  return sum / double(generated.size());
}

bool parseAnswerKind(const std::string &name, AnswerKind &kind) {
  static const std::pair<const char *, AnswerKind> kinds[] = {
      {"text", AnswerKind::Text}, {"number", AnswerKind::Number}, {"set", AnswerKind::Set}};
  for (const auto &k : kinds)
    if (name == k.first) {
      kind = k.second;
      return true;
    }
  return false;
}

namespace {

/// Parses a whole reference string as a number; false if it is not one.
bool parseNumber(const std::string &s, double &v) {
  char *end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && end && *end == 0 && std::isfinite(v);
}

bool parseWhole(const std::string &s, long long &v) {
  char *end = nullptr;
  v = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && end && *end == 0;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

double numericCloseness(const std::string &generated, double reference) {
  const std::string &g = generated;
  for (size_t i = 0; i < g.size(); ++i) {
    if (!isDigit(g[i]))
      continue;
    // Digits, thousands separators (a comma before exactly three digits),
    // then an optional fraction; a '-' right before is the sign.
    std::string digits;
    size_t j = i;
    while (j < g.size()) {
      if (isDigit(g[j])) {
        digits += g[j++];
      } else if (g[j] == ',' && j + 3 < g.size() && isDigit(g[j + 1]) &&
                 isDigit(g[j + 2]) && isDigit(g[j + 3]) &&
                 (j + 4 == g.size() || !isDigit(g[j + 4]))) {
        ++j; // "12,345": a thousands separator
      } else {
        break;
      }
    }
    if (j + 1 < g.size() && g[j] == '.' && isDigit(g[j + 1])) {
      digits += g[j++];
      while (j < g.size() && isDigit(g[j]))
        digits += g[j++];
    }
    double a = std::strtod(digits.c_str(), nullptr);
    if (i > 0 && g[i - 1] == '-')
      a = -a;
    double err = reference != 0 ? std::fabs(a - reference) / std::fabs(reference)
                                : std::fabs(a);
    return std::max(0.0, 1.0 - err);
  }
  return 0.0;
}

double setOverlap(const std::string &generated, const std::vector<long long> &reference) {
  std::unordered_set<long long> got, want(reference.begin(), reference.end());
  for (size_t i = 0; i < generated.size();) {
    if (!isDigit(generated[i])) {
      ++i;
      continue;
    }
    long long v = 0;
    while (i < generated.size() && isDigit(generated[i]) && v < (1LL << 50))
      v = v * 10 + (generated[i++] - '0');
    got.insert(v);
  }
  if (got.empty() || want.empty())
    return 0.0;
  size_t common = 0;
  for (long long v : got)
    common += want.count(v);
  return double(common) / double(got.size() + want.size() - common);
}

std::string checkGradedReferences(AnswerKind kind, const std::vector<std::string> &references) {
  if (references.empty())
    return "no reference answer";
  if (kind == AnswerKind::Number) {
    double v;
    if (references.size() != 1 || !parseNumber(references[0], v))
      return "a number question takes exactly one number as its reference";
  } else if (kind == AnswerKind::Set) {
    for (const std::string &r : references) {
      long long v;
      if (!parseWhole(r, v))
        return "a set question's references are whole numbers ('" + r + "' is not)";
    }
  }
  return "";
}

double gradedScore(const std::string &generated, AnswerKind kind,
                   const std::vector<std::string> &references) {
  switch (kind) {
  case AnswerKind::Text:
    return answerContainment(generated, references);
  case AnswerKind::Number: {
    double v = 0;
    return parseNumber(references.front(), v) ? numericCloseness(generated, v) : 0.0;
  }
  case AnswerKind::Set: {
    std::vector<long long> ids;
    for (const std::string &r : references) {
      long long v;
      if (parseWhole(r, v))
        ids.push_back(v);
    }
    return setOverlap(generated, ids);
  }
  }
  return 0.0;
}

double relativeAccuracy(double accuracy, double exactAccuracy) {
  return exactAccuracy > 0 ? std::min(1.0, accuracy / exactAccuracy) : 1.0;
}

} // namespace approx::qos
