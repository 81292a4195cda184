//===- Certify.cpp - approx_runtime._core: certification on stored scores -===//
//
// The tuner's certification (approx/Tuner/Certify.h) over per-input scores
// the caller holds: a replay of stored outcomes (benchmarks/certify), or a
// pipeline measured outside approx_runtime.tune.
//
//===----------------------------------------------------------------------===//
#include "Core.h"

#include "approx/Tuner/Certify.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
namespace tune = approx::tune;

namespace approx::python {
tune::BoundKind boundArg(const std::string &name, const char *arg) {
  tune::BoundKind kind;
  if (!tune::parseBound(name, kind))
    throw nb::value_error((std::string(arg) + " must be 'betting' or "
                           "'hoeffding-bentkus', not '" + name + "'")
                              .c_str());
  return kind;
}

namespace {

tune::Paired paired(const std::vector<double> &exact,
                    const std::vector<double> &approx) {
  if (exact.size() != approx.size())
    throw nb::value_error(("exact and approximate scores differ in length (" +
                           std::to_string(exact.size()) + " and " +
                           std::to_string(approx.size()) + ")")
                              .c_str());
  for (const std::vector<double> *v : {&exact, &approx})
    for (double s : *v)
      if (!(s >= 0 && s <= 1))
        throw nb::value_error(
            ("a score " + std::to_string(s) + " is outside [0, 1]").c_str());
  tune::Paired p;
  p.exact = exact;
  p.approx = approx;
  return p;
}

void checkDelta(double delta) {
  if (!(delta > 0 && delta < 1))
    throw nb::value_error("delta must be within (0, 1)");
}

} // namespace

void bindCertify(nb::module_ &m) {
  m.def(
      "loss_upper_bound",
      [](const std::vector<double> &exact, const std::vector<double> &approx,
         double delta, const std::string &bound) {
        checkDelta(delta);
        return tune::lossUpperBound(paired(exact, approx), delta, boundArg(bound, "bound"));
      },
      nb::arg("exact"), nb::arg("approx"), nb::arg("delta"), nb::arg("bound"));
  m.def(
      "certify_sequence",
      [](const std::vector<double> &exact,
         const std::vector<std::optional<std::vector<double>>> &candidates,
         const std::vector<double> &times, const std::vector<double> &levels,
         double delta, const std::string &bound) {
        checkDelta(delta);
        if (times.size() != candidates.size())
          throw nb::value_error("one time per candidate");
        tune::BoundKind kind = boundArg(bound, "bound");
        std::vector<tune::Candidate> cs(candidates.size());
        for (size_t i = 0; i < cs.size(); ++i) {
          cs[i].time = times[i];
          if (candidates[i])
            cs[i].paired = paired(exact, *candidates[i]);
          else
            cs[i].why = "no scores";
        }
        nb::list out;
        for (double level : levels) {
          tune::LevelCertificate c = tune::fixedSequence(cs, level, delta, kind);
          nb::dict d;
          d["level"] = level;
          d["pick"] = c.pick;
          d["tested"] = c.tested;
          d["stopped_at"] = c.stoppedAt;
          d["needed"] = c.needed;
          out.append(d);
        }
        return out;
      },
      nb::arg("exact"), nb::arg("candidates"), nb::arg("times"),
      nb::arg("levels"), nb::arg("delta"), nb::arg("bound"));
}

} // namespace approx::python
