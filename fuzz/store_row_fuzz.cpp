//===- store_row_fuzz.cpp - libFuzzer target: results-store rows ---------===//
// Any bytes as one stored evaluation's columns (newline-separated: seq,
// technique, config, status, time, qos, samples, message, clock, the rest the
// per-input scores): decodeEvaluation accepts only a row whose numbers are
// finite and whose configuration names a parameter, else says why.
#include "approx/Tuner/Store.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::stringstream in(text);
  std::string field[9];
  for (std::string &f : field)
    std::getline(in, f);
  approx::tune::StoredRow row;
  row.seq = std::strtoll(field[0].c_str(), nullptr, 10);
  row.technique = field[1];
  row.config = field[2];
  row.status = field[3];
  row.time = std::strtod(field[4].c_str(), nullptr);
  row.qos = std::strtod(field[5].c_str(), nullptr);
  row.samples = field[6];
  row.message = field[7];
  row.clock = std::strtod(field[8].c_str(), nullptr);
  std::getline(in, row.detail, '\0');
  approx::tune::Evaluation e;
  std::string error;
  if (approx::tune::decodeEvaluation(row, e, error)) {
    if (e.config.empty() || !std::isfinite(e.result.time) ||
        !std::isfinite(e.result.qos) || !(e.clock >= 0 && std::isfinite(e.clock)))
      std::abort();
    for (double t : e.result.samples)
      if (!std::isfinite(t) || t < 0)
        std::abort();
    for (const auto &[id, score] : e.result.detail)
      if (id.empty() || !(score >= 0 && score <= 1))
        std::abort();
  } else if (error.empty()) {
    std::abort();
  }
  return 0;
}
