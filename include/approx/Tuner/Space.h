//===- Space.h - tunable parameters of an approx program --------*- C++ -*-===//
//
// The seed's MLIRConfigManager / TunableParam in C++: the parameters of a
// program's knobs, with bounds, validation and the size of the static and
// dynamic spaces. No MLIR dependency (extraction lives in SpaceFromMLIR.h).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_SPACE_H
#define APPROX_TUNER_SPACE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace approx::tune {

/// A configuration: parameter name -> value (the seed's flat JSON).
using Config = std::map<std::string, int64_t>;

/// Schedule: a transform script's transform.tune.knob / tune.alternatives
/// (DESIGN §17), named by its name; its baseline is the script's choice.
enum class ParamKind { Threshold, Decision, KnobVal, Schedule };
const char *kindName(ParamKind kind);

/// One tunable parameter (seed: TunableParam).
struct TunableParam {
  std::string name;     // <knob>_threshold_<i>, <knob>_decision_<j>, <knob>_knob_val
  int64_t lower = 0;    // thresholds: from thresholds_lowers
  int64_t upper = 0;    // thresholds: from thresholds_uppers
  int64_t current = 0;  // the annotation's value
  ParamKind kind = ParamKind::Threshold;
  std::string function; // the annotated function (symbol)
  std::string knob;     // the knob name (prefix of `name`)
  unsigned index = 0;   // position among the knob's thresholds/decisions
  std::vector<int64_t> values; // decisions / knob values / schedule options

  /// Its value in the baseline (exact) configuration: a threshold's and a
  /// schedule choice's own value, 0 (exact) for a knob value.
  int64_t baseline() const {
    return kind == ParamKind::Threshold || kind == ParamKind::Schedule ? current
                                                                       : 0;
  }
};

/// What a knob inside a func_substitute variant depends on: the variant
/// `approx_<f>_<value>` runs only while knob `knob` (an index into
/// Space::knobs) selects `value` (DESIGN §4).
struct Gate {
  size_t knob = 0;
  int64_t value = 0;
};

/// One knob: which parameters it owns.
struct KnobParams {
  std::string name, function, transformType; // transformType "schedule":
                                              // a script's choice
  bool decisionTree = false;
  std::vector<size_t> thresholds, decisions; // indices into Space::params
  size_t knobVal = 0;                        // static knobs
  /// Set when the knob is annotated on a variant that one func_substitute
  /// knob alone calls: its parameters are don't-care wherever that knob
  /// cannot select the variant.
  std::optional<Gate> gate;
};

struct Space {
  std::vector<TunableParam> params;
  std::vector<KnobParams> knobs;

  const TunableParam *find(const std::string &name) const;

  /// The annotations' own values.
  Config defaults() const;

  /// `config` with every parameter it leaves out at its default.
  Config complete(const Config &config) const;

  /// The parameters that choose a knob's variant: a tree's decisions, or
  /// a static knob's (or schedule choice's) value.
  std::vector<size_t> selectors(const KnobParams &knob) const;

  /// Whether some configuration runs knob `k`: false when it sits in a
  /// variant no decision of its gate can select (then every parameter of
  /// it is don't-care and the search leaves it out).
  bool reachable(size_t k) const;

  /// Whether `config` (complete) runs knob `k`: its gate's knob runs and
  /// one of its selectors holds the gate's value.
  bool live(size_t k, const Config &config) const;

  /// The representative of `config` among the configurations that run the
  /// same code: completed with the defaults; every parameter of a knob that
  /// does not run at its exact value; in a dynamic space, a threshold
  /// between two equal decisions (it separates nothing) at the lowest value
  /// its bounds and the threshold below it allow, and the thresholds of a
  /// tree whose decisions are all equal at the annotation's values (as a
  /// static configuration has them). Evaluations are of representatives.
  Config canonical(const Config &config, bool dynamic) const;

  /// Number of configurations the search can tell apart, i.e. of
  /// representatives (canonical): `dynamic` counts decision trees (strictly
  /// ascending thresholds within bounds, each decision from its values);
  /// static counts one value per knob (a tree's decisions all equal). NaN
  /// when a tree's thresholds range too widely to count.
  double size(bool dynamic) const;

  /// Problems of `config` (unknown names, values out of bounds or not
  /// allowed, thresholds not strictly ascending once merged with the
  /// defaults); empty when valid.
  std::vector<std::string> validate(const Config &config) const;

  /// Completes `config` with the defaults and makes it a point of the static
  /// space: false, naming the knob in `why`, when a tree's decisions differ;
  /// else its thresholds are reset to the annotation's values (with equal
  /// decisions they select nothing).
  bool toStatic(Config &config, std::string &why) const;

  /// `config` as a configuration a search starts from (TuneOptions::start):
  /// valid, completed with the defaults and, for a static search, a point of
  /// the static space; false with the first problem in `why` otherwise.
  bool toStart(Config &config, bool dynamic, std::string &why) const;
};

/// Reads the seed's flat JSON configuration {"name": int, ...} with the
/// runtime's parser (32-bit integer values); on failure returns false with a
/// message naming the file and line in `error`.
bool readConfig(const std::string &path, Config &config, std::string &error);

/// Writes a configuration as flat JSON, one entry per line, sorted.
std::string toJson(const Config &config);

/// `s` as a JSON string literal: quotes and backslashes escaped, control
/// characters as \u00XX (what the runtime's configuration reader accepts).
std::string jsonString(const std::string &s);

} // namespace approx::tune

#endif // APPROX_TUNER_SPACE_H
