//===- Certify.h - statistical guarantees on a configuration's loss --*- C++ -*-===//
//
// A configuration's loss on a set of inputs is paired against the exact
// configuration on the same inputs:
//
//   loss = 1 - sum(score) / sum(exact score)
//
// (negative when the configuration is more accurate than exact). For a loss
// level L, "loss <= L" is tested on a calibration set with a valid one-sided
// test for i.i.d. inputs, and the candidates are tested in a fixed sequence
// (most accurate first, stopping at the first that fails), which controls
// the family-wise error at delta without a Bonferroni split (Learn-then-Test,
// Angelopoulos et al. 2021). docs/tuning.md#certification.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_CERTIFY_H
#define APPROX_TUNER_CERTIFY_H

#include "approx/Tuner/Evaluator.h"

#include <optional>
#include <string>
#include <vector>

namespace approx::tune {

/// How "loss <= L" is tested. Both are valid for i.i.d. inputs with scores
/// in [0, 1]; neither assumes a distribution.
enum class BoundKind {
  /// Testing by betting (Waudby-Smith & Ramdas 2024): a capital process
  /// betting on the paired outcomes, its stake set by online Newton steps
  /// from the inputs seen so far; p = 1 / (the largest capital reached),
  /// by Ville's inequality. Adapts to the variance: tight when the
  /// configuration mostly agrees with exact.
  Betting,
  /// Hoeffding-Bentkus (Bates et al. 2021), the bound of Learn-then-Test's
  /// examples: the better of Hoeffding's and Bentkus's binomial tail on the
  /// paired outcome rescaled to [0, 1]. Tight for losses measured alone,
  /// loose for paired outcomes with few disagreements.
  HoeffdingBentkus,
};
const char *boundName(BoundKind kind);
/// Inverse of boundName; false for an unknown name.
bool parseBound(const std::string &name, BoundKind &kind);

/// A configuration's and the exact configuration's scores on the same
/// inputs, in the same order.
struct Paired {
  std::vector<double> exact, approx;
  size_t inputs() const { return exact.size(); }
  double exactSum() const;
  double approxSum() const;
  /// 1 - sum(approx) / sum(exact); 0 when exact scored nothing.
  double loss() const;
};

/// Pairs `approx` with `exact` by input id. False with `error` when the
/// ids differ (a missing or an extra input, named).
bool pairScores(const std::vector<InputScore> &exact,
                const std::vector<InputScore> &approx, Paired &paired,
                std::string &error);

/// A p-value of "the loss exceeds `level`" (level < 1): small when the
/// paired outcomes show the loss is at most `level`; 1 when there are no
/// inputs or the exact configuration scored nothing.
double lossPValue(const Paired &paired, double level, BoundKind kind);

/// The one-sided (1 - delta) upper confidence bound on the loss: the
/// smallest level (on a 0.001 grid) that the test rejects at `delta`; 1
/// when none below 1.
double lossUpperBound(const Paired &paired, double delta, BoundKind kind);

/// The fewest inputs on which "loss <= level" can pass at `delta` at all:
/// the test on a configuration scoring 1 on every input, as exact does (the
/// best case for a configuration that never beats exact; where exact itself
/// scores less, more inputs are needed). Fewer inputs certify nothing at
/// that level, whatever was measured; 0 when not even `most` inputs
/// suffice.
size_t minimumInputs(double level, double delta, BoundKind kind,
                     size_t most = 1000000);

/// log P(Binomial(n, p) <= k) (0 for k >= n).
double logBinomialCdf(size_t n, double p, size_t k);

/// One candidate of a fixed sequence: its paired outcomes, or none (its
/// calibration measurement failed, or its inputs differ from exact's).
struct Candidate {
  std::optional<Paired> paired;
  double time = 0; // on the calibration set, seconds
  std::string why; // when there is no pairing
};

/// The outcome of testing one loss level.
struct LevelCertificate {
  double level = 0, delta = 0;
  /// The fastest candidate that passed (index into the candidates), or -1:
  /// none passed and the exact configuration is the certified one.
  long pick = -1;
  /// Candidates tested (the sequence stops at the first that fails).
  size_t tested = 0;
  /// Why the sequence stopped ("" when every candidate passed). When the
  /// candidates had too few inputs for the level, it says so first.
  std::string stoppedAt;
  /// The fewest inputs this level can pass on (minimumInputs), when the
  /// candidates had fewer: nothing could be certified; 0 otherwise.
  size_t needed = 0;
  /// That, in a sentence ("" when there were inputs enough).
  std::string tooFewInputs;
};

/// Whether `candidate` passes "loss <= level" at `delta`: it has a pairing
/// and its p-value is at most delta. (In a fixed sequence, the first that
/// does not ends it.)
bool passes(const Candidate &candidate, double level, double delta,
            BoundKind kind);

/// At most `most` + levels.size() + 1 of a fixed sequence's candidates,
/// chosen on the tuning set alone (so the sequence stays valid): the most
/// accurate candidate (the fallback of a level whose fastest one fails),
/// and for each loss target — every level in `levels`, and `most` targets
/// evenly spaced up to the loosest level — the fastest candidate whose
/// tuning-set loss is within it. `losses` and `times` are the candidates'
/// tuning-set loss and time, in sequence order (most accurate first); the
/// result indexes them, in that order. None with a tuning-set loss above
/// the loosest level is kept (none meets a target); every other one when
/// there are at most `most` of them. Every candidate when `most` is 0.
std::vector<size_t> thinCandidates(const std::vector<double> &losses,
                                   const std::vector<double> &times,
                                   const std::vector<double> &levels,
                                   size_t most);

/// Fixed-sequence testing of "loss <= level" over `candidates` in the
/// order given (most accurate first): each is tested at `delta`; the first
/// that fails (or has no pairing) ends the sequence. The family-wise error
/// of the certified set is at most delta.
LevelCertificate fixedSequence(const std::vector<Candidate> &candidates,
                               double level, double delta, BoundKind kind);

} // namespace approx::tune

#endif // APPROX_TUNER_CERTIFY_H
