//===- Metrics.h - QoS metrics of the paper ---------------------*- C++ -*-===//
//
// Accuracy in [0, 1] (1 = exact); QoS loss = 1 - accuracy. No MLIR or LLVM
// dependency.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNER_METRICS_H
#define APPROX_TUNER_METRICS_H

#include <cstddef>
#include <string>
#include <vector>

namespace approx::qos {

/// L2 accuracy: 1 - ||exact - approx||_2 / ||exact||_2, clamped to [0, 1].
/// Both vectors must have the same length and only finite values (else 0:
/// a NaN or an infinity is no approximation of anything). An all-zero
/// `exact` gives 1 when `approx` is all zero too, else 0.
double l2Accuracy(const std::vector<double> &exact,
                  const std::vector<double> &approx);

/// The approximate-computing suite's metrics (benchmarks/axbench). Each
/// needs vectors of the same length (else 0) and returns 0 when a value is
/// not finite; 1 for two empty vectors.
///
/// 1 - AxBench's average relative error: the mean over elements of
/// |approx - exact| / |exact|, each capped at 1 (an element whose exact
/// value is 0 counts 0 when matched exactly, else 1).
double relativeErrorAccuracy(const std::vector<double> &exact,
                             const std::vector<double> &approx);
/// 1 - the miss rate: the share of elements that differ.
double missRateAccuracy(const std::vector<double> &exact,
                        const std::vector<double> &approx);
/// 1 - RMSE / `range` of two images (pixel values, 0..range), clamped to
/// [0, 1].
double imageRmseAccuracy(const std::vector<double> &exact,
                         const std::vector<double> &approx,
                         double range = 255);

/// L2 accuracy of two sets of `k` points in `dim` dimensions (row-major)
/// after matching each approximate point to a distinct exact one so that
/// the total squared distance is minimal (Hungarian algorithm, O(k^3));
/// used for k-means centroids, whose order is arbitrary. 0 when a value is
/// not finite (the matching is undefined on NaN).
double matchedL2Accuracy(const std::vector<double> &exact,
                         const std::vector<double> &approx, size_t dim);

/// Rank-biased overlap of two rankings (most relevant first) with
/// persistence `p` (0.95 in the paper), evaluated to depth
/// D = min(1000, max(|S|, |T|)) and normalised by its maximum at depth D,
/// 1 - p^D, so identical rankings score 1.
double rbo(const std::vector<std::string> &s, const std::vector<std::string> &t,
           double p = 0.95);

/// 1 - normalised Spearman footrule distance between two top-k rankings
/// (Fagin et al.'s extension: an item missing from a list has rank k + 1,
/// k = max(|S|, |T|)); 1 for identical rankings, 0 for disjoint ones.
double footrule(const std::vector<std::string> &s,
                const std::vector<std::string> &t);

/// Answer containment (the paper's compound-QA metric): 1 if any reference
/// answer occurs, as whole words, in the generated answer after NQ
/// normalisation (lower case, ASCII punctuation removed, the articles
/// a/an/the dropped, white space collapsed), else 0.
double answerContainment(const std::string &generated,
                         const std::vector<std::string> &references);

/// Accuracy of a question set: the mean answer containment of
/// `generated[i]` against `references[i]`; 0 for an empty set. The sizes
/// must match (the caller checks).
double answerAccuracy(const std::vector<std::string> &generated,
                      const std::vector<std::vector<std::string>> &references);

/// The kinds of reference answer of the LLM + tools questions (the paper's
/// augmented NQ grades each question by its kind).
enum class AnswerKind { Text, Number, Set };

/// "text", "number" or "set"; false for anything else.
bool parseAnswerKind(const std::string &name, AnswerKind &kind);

/// Numeric closeness: the first number in the generated answer (digits,
/// an optional sign and fraction, thousands separators "12,345") against
/// `reference`: max(0, 1 - |a - r| / |r|) (1 - |a| when r = 0, floored
/// at 0); 0 when the answer holds no number.
double numericCloseness(const std::string &generated, double reference);

/// Set overlap: the Jaccard index of the whole numbers in the generated
/// answer and the reference set (ids); 0 when either is empty.
double setOverlap(const std::string &generated, const std::vector<long long> &reference);

/// One answer's graded score by the kind of its references: answer
/// containment (text), numeric closeness to the first reference (number),
/// set overlap with the references as whole numbers (set). The references
/// of a number or set question must parse (the caller checks, see
/// parseGradedReferences).
double gradedScore(const std::string &generated, AnswerKind kind,
                   const std::vector<std::string> &references);

/// Checks the references of a number question (exactly one number) or a
/// set question (whole numbers); an empty string when they are good, else
/// what is wrong.
std::string checkGradedReferences(AnswerKind kind, const std::vector<std::string> &references);

/// A compound system's QoS: its accuracy relative to the exact system's on
/// the same questions, capped at 1 (answering more questions than the exact
/// system is no loss); 1 when the exact system answers none.
double relativeAccuracy(double accuracy, double exactAccuracy);

} // namespace approx::qos

#endif // APPROX_TUNER_METRICS_H
