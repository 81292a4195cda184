//===- Space.cpp - tunable parameters of an approx program ----------------===//
#include "approx/Tuner/Space.h"
#include "approx/Support/ParamHint.h"
#include "approx_runtime.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace approx::tune {

const char *kindName(ParamKind kind) {
  switch (kind) {
  case ParamKind::Threshold:
    return "threshold";
  case ParamKind::Decision:
    return "decision";
  case ParamKind::KnobVal:
    return "knob_val";
  case ParamKind::Schedule:
    return "schedule";
  }
  return "";
}

const TunableParam *Space::find(const std::string &name) const {
  for (const TunableParam &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

Config Space::defaults() const {
  Config c;
  for (const TunableParam &p : params)
    c[p.name] = p.current;
  return c;
}

Config Space::complete(const Config &config) const {
  Config c = defaults();
  for (const auto &[name, value] : config)
    c[name] = value;
  return c;
}

namespace {

/// Number of strictly ascending tuples t_0 < t_1 < ... with t_i in
/// [lower_i, upper_i] (dynamic programming over values with prefix sums).
double ascendingTuples(const std::vector<const TunableParam *> &ts) {
  if (ts.empty())
    return 1;
  int64_t lo = ts.front()->lower, hi = ts.front()->upper;
  for (const TunableParam *t : ts) {
    lo = std::min(lo, t->lower);
    hi = std::max(hi, t->upper);
  }
  if (hi - lo > 50'000'000)
    return std::nan(""); // too wide to count exactly
  size_t n = size_t(hi - lo + 1);
  std::vector<double> ways(n, 0), next(n);
  for (int64_t v = ts[0]->lower; v <= ts[0]->upper; ++v)
    ways[size_t(v - lo)] = 1;
  for (size_t i = 1; i < ts.size(); ++i) {
    double below = 0;
    for (size_t v = 0; v < n; ++v) {
      int64_t value = lo + int64_t(v);
      next[v] = value >= ts[i]->lower && value <= ts[i]->upper ? below : 0;
      below += ways[v];
    }
    ways.swap(next);
  }
  double total = 0;
  for (double w : ways)
    total += w;
  return total;
}

} // namespace

double Space::size(bool dynamic) const {
  double total = 1;
  for (const KnobParams &k : knobs) {
    if (!k.decisionTree) {
      total *= double(std::max<size_t>(1, params[k.knobVal].values.size()));
      continue;
    }
    std::vector<int64_t> values = params[k.decisions.front()].values;
    if (!dynamic) {
      total *= double(std::max<size_t>(1, values.size()));
      continue;
    }
    std::vector<const TunableParam *> ts;
    for (size_t i : k.thresholds)
      ts.push_back(&params[i]);
    total *= ascendingTuples(ts);
    for (size_t j : k.decisions)
      total *= double(std::max<size_t>(1, params[j].values.size()));
  }
  return total;
}

std::vector<std::string> Space::validate(const Config &config) const {
  std::vector<std::string> problems;
  for (const auto &[name, value] : config) {
    const TunableParam *p = find(name);
    if (!p) {
      std::vector<std::string> known;
      for (const TunableParam &q : params)
        known.push_back(q.name);
      problems.push_back("unknown parameter '" + name + "'" +
                         names::didYouMean(name, known));
      continue;
    }
    if (p->kind == ParamKind::Threshold) {
      if (value < p->lower || value > p->upper)
        problems.push_back(name + " = " + std::to_string(value) +
                           " is outside [" + std::to_string(p->lower) + ", " +
                           std::to_string(p->upper) + "]");
    } else if (!p->values.empty() &&
               std::find(p->values.begin(), p->values.end(), value) ==
                   p->values.end()) {
      std::string allowed;
      for (int64_t v : p->values)
        allowed += (allowed.empty() ? "" : ", ") + std::to_string(v);
      problems.push_back(name + " = " + std::to_string(value) +
                         " is not one of {" + allowed + "}");
    }
  }
  Config merged = complete(config);
  for (const KnobParams &k : knobs)
    for (size_t i = 1; i < k.thresholds.size(); ++i) {
      const std::string &a = params[k.thresholds[i - 1]].name;
      const std::string &b = params[k.thresholds[i]].name;
      if (merged[b] <= merged[a])
        problems.push_back(b + " = " + std::to_string(merged[b]) +
                           " must be above " + a + " = " +
                           std::to_string(merged[a]));
    }
  return problems;
}

bool Space::toStatic(Config &config, std::string &why) const {
  Config merged = complete(config);
  for (const KnobParams &k : knobs) {
    if (!k.decisionTree)
      continue;
    int64_t first = merged[params[k.decisions.front()].name];
    for (size_t j : k.decisions)
      if (merged[params[j].name] != first) {
        why = "knob '" + k.name + "' has different decisions (" +
              params[k.decisions.front()].name + " = " +
              std::to_string(first) + ", " + params[j].name + " = " +
              std::to_string(merged[params[j].name]) +
              "): not a static configuration";
        return false;
      }
    for (size_t i : k.thresholds)
      merged[params[i].name] = params[i].current;
  }
  config = std::move(merged);
  return true;
}

bool Space::toStart(Config &config, bool dynamic, std::string &why) const {
  std::vector<std::string> problems = validate(config);
  if (!problems.empty()) {
    why = problems.front();
    return false;
  }
  config = complete(config);
  return dynamic || toStatic(config, why);
}

bool readConfig(const std::string &path, Config &config, std::string &error) {
  // The runtime's reader: a file the tuner accepts is one APPROX_CONFIG
  // accepts.
  approx_rt_entry *entries = nullptr;
  size_t count = 0;
  if (approx_rt_read_config(path.c_str(), &entries, &count)) {
    error = approx_rt_last_error();
    return false;
  }
  for (size_t i = 0; i < count; ++i)
    config[entries[i].name] = entries[i].value;
  approx_rt_free_config(entries, count);
  return true;
}

std::string jsonString(const std::string &s) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string toJson(const Config &config) {
  std::string out = "{";
  bool first = true;
  for (const auto &[name, value] : config) {
    out += first ? "\n" : ",\n";
    out += "  " + jsonString(name) + ": " + std::to_string(value);
    first = false;
  }
  return out + (first ? "}\n" : "\n}\n");
}

} // namespace approx::tune
