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

/// One knob: which parameters it owns.
struct KnobParams {
  std::string name, function, transformType; // transformType "schedule":
                                              // a script's choice
  bool decisionTree = false;
  std::vector<size_t> thresholds, decisions; // indices into Space::params
  size_t knobVal = 0;                        // static knobs
};

struct Space {
  std::vector<TunableParam> params;
  std::vector<KnobParams> knobs;

  const TunableParam *find(const std::string &name) const;

  /// The annotations' own values.
  Config defaults() const;

  /// `config` with every parameter it leaves out at its default.
  Config complete(const Config &config) const;

  /// Number of configurations: `dynamic` counts decision trees (ascending
  /// thresholds within bounds, each decision from its values); static counts
  /// one knob value per knob (a tree's decisions all equal).
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
