//===- Space.cpp - tunable parameters of an approx program ----------------===//
#include "approx/Tuner/Space.h"
#include "approx/Support/ParamHint.h"
#include "approx_runtime.h"

#include <algorithm>
#include <cmath>
#include <functional>
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

std::vector<size_t> Space::selectors(const KnobParams &knob) const {
  return knob.decisionTree ? knob.decisions : std::vector<size_t>{knob.knobVal};
}

namespace {

/// The values a parameter can take (its own value when it lists none).
std::vector<int64_t> choices(const TunableParam &p) {
  return p.values.empty() ? std::vector<int64_t>{p.current} : p.values;
}

} // namespace

namespace {

/// Whether every gate on knob `k`'s chain is open: for each, one of its
/// knob's selector parameters `p` holds the gate's value (`holds(p, v)`).
/// Gates form a forest (SpaceFromMLIR breaks any cycle).
template <typename Holds>
bool gatesOpen(const Space &space, size_t k, Holds holds) {
  for (std::optional<Gate> g = space.knobs[k].gate; g; g = space.knobs[g->knob].gate) {
    bool open = false;
    for (size_t p : space.selectors(space.knobs[g->knob]))
      open |= holds(p, g->value);
    if (!open)
      return false;
  }
  return true;
}

} // namespace

bool Space::reachable(size_t k) const {
  return gatesOpen(*this, k, [&](size_t p, int64_t v) {
    std::vector<int64_t> values = choices(params[p]);
    return std::find(values.begin(), values.end(), v) != values.end();
  });
}

bool Space::live(size_t k, const Config &config) const {
  return gatesOpen(*this, k, [&](size_t p, int64_t v) {
    return config.at(params[p].name) == v;
  });
}

Config Space::canonical(const Config &config, bool dynamic) const {
  Config c = complete(config);
  std::vector<bool> runs(knobs.size());
  for (size_t k = 0; k < knobs.size(); ++k)
    runs[k] = live(k, c); // before any knob is reset
  for (size_t k = 0; k < knobs.size(); ++k) {
    const KnobParams &knob = knobs[k];
    if (!runs[k]) {
      std::vector<size_t> all = selectors(knob);
      all.insert(all.end(), knob.thresholds.begin(), knob.thresholds.end());
      for (size_t p : all)
        c[params[p].name] = params[p].baseline();
      continue;
    }
    if (!dynamic || !knob.decisionTree)
      continue;
    auto decision = [&](size_t j) { return c[params[knob.decisions[j]].name]; };
    bool allEqual = true;
    for (size_t j = 1; j < knob.decisions.size(); ++j)
      allEqual &= decision(j) == decision(0);
    for (size_t i = 0; i < knob.thresholds.size(); ++i) {
      const TunableParam &t = params[knob.thresholds[i]];
      if (allEqual) {
        c[t.name] = t.current;
      } else if (decision(i) == decision(i + 1)) {
        int64_t lowest = t.lower;
        if (i > 0)
          lowest = std::max(lowest, c[params[knob.thresholds[i - 1]].name] + 1);
        c[t.name] = lowest; // never above its old value: still ascending
      }
    }
  }
  return c;
}

namespace {

/// For a tree's thresholds `ts`, the number of representatives (see
/// Space::canonical) with c = 0..ts.size() change points (thresholds whose
/// decisions on either side differ): a change point takes any value of its
/// bounds above the threshold below it, any other threshold the lowest it
/// can. Dynamic programming over threshold values with prefix sums; empty
/// when the values range too widely to count.
std::vector<double> thresholdsByChanges(const std::vector<const TunableParam *> &ts) {
  size_t m = ts.size();
  if (m == 0)
    return {1};
  int64_t lo = ts.front()->lower, hi = ts.front()->upper;
  for (const TunableParam *t : ts) {
    lo = std::min(lo, t->lower);
    hi = std::max(hi, t->upper);
  }
  if (double(hi - lo + 1) * double(m + 1) > 50e6)
    return {}; // too wide to count exactly
  size_t n = size_t(hi - lo + 1);
  // ways[c][v]: prefixes ending at value lo + v with c change points.
  std::vector<std::vector<double>> ways(m + 1, std::vector<double>(n, 0)), next = ways;
  auto at = [&](int64_t value) { return size_t(value - lo); };
  for (int64_t v = ts[0]->lower; v <= ts[0]->upper; ++v)
    ways[1][at(v)] = 1;
  ways[0][at(ts[0]->lower)] += 1;
  for (size_t i = 1; i < m; ++i) {
    const TunableParam &t = *ts[i];
    for (auto &row : next)
      std::fill(row.begin(), row.end(), 0);
    for (size_t c = 0; c <= i; ++c) {
      double below = 0; // prefixes ending below the value v
      for (size_t v = 0; v < n; ++v) {
        int64_t value = lo + int64_t(v);
        if (value >= t.lower && value <= t.upper)
          next[c + 1][v] += below; // a change point: any value above
        below += ways[c][v];
        if (ways[c][v] == 0)
          continue;
        int64_t lowest = std::max(t.lower, value + 1); // not a change point
        if (lowest <= t.upper)
          next[c][at(lowest)] += ways[c][v];
      }
    }
    ways.swap(next);
  }
  std::vector<double> total(m + 1, 0);
  for (size_t c = 0; c <= m; ++c)
    for (double w : ways[c])
      total[c] += w;
  return total;
}

/// Sequences of c + 1 values out of n with no two neighbours equal.
double alternating(double n, size_t c) {
  return n * std::pow(std::max(0.0, n - 1), double(c));
}

} // namespace

double Space::size(bool dynamic) const {
  // Knobs in variants hang below the knob that selects them: a subtree
  // counts once per value of its root, times its children's subtrees for
  // the values that run them.
  std::vector<std::vector<size_t>> children(knobs.size());
  std::vector<size_t> roots;
  for (size_t k = 0; k < knobs.size(); ++k) {
    if (!reachable(k))
      continue; // don't-care: one representative
    if (knobs[k].gate)
      children[knobs[k].gate->knob].push_back(k);
    else
      roots.push_back(k);
  }
  std::function<double(size_t)> subtree = [&](size_t k) -> double {
    const KnobParams &knob = knobs[k];
    std::vector<int64_t> values = choices(params[selectors(knob).front()]);
    std::map<int64_t, double> weight; // values that run children
    for (size_t child : children[k])
      if (std::find(values.begin(), values.end(), knobs[child].gate->value) !=
          values.end()) {
        auto [it, fresh] = weight.emplace(knobs[child].gate->value, 1.0);
        it->second *= subtree(child);
      }
    if (!knob.decisionTree || !dynamic) {
      double total = double(values.size() - weight.size());
      for (const auto &[v, w] : weight)
        total += w;
      return total;
    }
    std::vector<const TunableParam *> ts;
    for (size_t i : knob.thresholds)
      ts.push_back(&params[i]);
    std::vector<double> byChanges = thresholdsByChanges(ts);
    if (byChanges.empty() || weight.size() > 16)
      return std::nan("");
    // Decision sequences with c changes, each value with children counted
    // by its weight once when used: inclusion-exclusion over the set U of
    // such values allowed, sum over U of alternating(n0 + |U|, c) *
    // prod_U w * prod_(not U) (1 - w).
    std::vector<double> w;
    for (const auto &[v, x] : weight)
      w.push_back(x);
    double n0 = double(values.size() - w.size()), total = 0;
    for (size_t c = 0; c < byChanges.size(); ++c) {
      if (byChanges[c] == 0)
        continue;
      double sequences = 0;
      for (size_t u = 0; u < (size_t(1) << w.size()); ++u) {
        double factor = 1, allowed = n0;
        for (size_t b = 0; b < w.size(); ++b)
          if (u >> b & 1) {
            factor *= w[b];
            allowed += 1;
          } else {
            factor *= 1 - w[b];
          }
        if (factor != 0)
          sequences += factor * alternating(allowed, c);
      }
      total += byChanges[c] * sequences;
    }
    return total;
  };
  double total = 1;
  for (size_t k : roots)
    total *= subtree(k);
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
