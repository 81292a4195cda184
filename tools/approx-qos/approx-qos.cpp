//===- approx-qos.cpp - compute a QoS metric from two files ---------------===//
//
//   approx-qos l2 exact.txt approx.txt          numbers, white-space separated
//   approx-qos l2-matched DIM exact.txt approx.txt   k points of DIM numbers
//   approx-qos relative-error|miss-rate|image-rmse exact.txt approx.txt
//                          numbers: 1 - the average relative error, 1 - the
//                          share of differing values, 1 - RMSE / 255 (the
//                          approximate-computing suite, benchmarks/axbench)
//   approx-qos rbo exact.txt approx.txt         ranked ids, one per line
//   approx-qos footrule exact.txt approx.txt
//   approx-qos rbo-mean exact.txt approx.txt    one ranking per line (ids
//                                               separated by blanks): mean RBO
//   approx-qos contains answer.txt references.txt    one reference per line
//   approx-qos nq-accuracy answers.txt questions.tsv [EXACT]  one answer per
//                          line; question<TAB>answer<TAB>... per line: the
//                          mean answer containment (the compound systems' QA),
//                          or with EXACT (the exact system's accuracy) the
//                          accuracy relative to it, capped at 1: their QoS
//   approx-qos graded-accuracy answers.txt questions.tsv [EXACT]  the same for
//                          question<TAB>kind<TAB>answer... lines (kind text:
//                          answer containment, number: numeric closeness,
//                          set: set overlap; the LLM + tools questions)
//   ... nq-accuracy|graded-accuracy ... --detail FILE   also writes each
//                          question's score to FILE as `q<line> <score>`
//                          (approx-tune's APPROX_QOS_DETAIL)
//
// Prints the accuracy in [0, 1] (QoS loss = 1 - accuracy).
//
//===----------------------------------------------------------------------===//
#include "approx/Tuner/Metrics.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: approx-qos l2|rbo|rbo-mean|footrule EXACT APPROX\n"
               "       approx-qos relative-error|miss-rate|image-rmse EXACT APPROX\n"
               "       approx-qos l2-matched DIM EXACT APPROX\n"
               "       approx-qos contains ANSWER REFERENCES\n"
               "       approx-qos nq-accuracy ANSWERS QUESTIONS [EXACT_ACCURACY] [--detail FILE]\n"
               "       approx-qos graded-accuracy ANSWERS QUESTIONS [EXACT_ACCURACY] [--detail FILE]\n");
  return 2;
}

/// The most a QoS input may hold: outputs of real runs are far smaller, and
/// an endless special file (/dev/zero) must not grow memory without bound.
constexpr size_t kMaxInputBytes = size_t(256) << 20;

bool readText(const char *path, std::string &out) {
  FILE *f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "approx-qos: error: cannot read '%s': %s\n", path,
                 std::strerror(errno));
    return false;
  }
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (out.size() + n > kMaxInputBytes) {
      std::fclose(f);
      std::fprintf(stderr, "approx-qos: error: '%s' is larger than %zu MiB, "
                           "the limit of a QoS input\n",
                   path, kMaxInputBytes >> 20);
      return false;
    }
    out.append(chunk, n);
  }
  bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) {
    std::fprintf(stderr, "approx-qos: error: cannot read '%s': %s\n", path,
                 std::strerror(errno));
    return false;
  }
  return true;
}

bool readNumbers(const char *path, std::vector<double> &out) {
  std::string text;
  if (!readText(path, text))
    return false;
  // Words are split on white space and read with std::from_chars (outputs of
  // millions of values are read per tuning evaluation); a word it does not
  // take whole (a leading '+', hexadecimal) goes to strtod, which decides.
  // White space is the C locale's (inline: a libc call per character was a
  // third of the time).
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  const char *p = text.data(), *stop = p + text.size();
  size_t index = 0;
  while (true) {
    while (p != stop && space(*p))
      ++p;
    if (p == stop)
      return true;
    const char *word = p;
    while (p != stop && !space(*p))
      ++p;
    ++index;
    double v;
    auto [last, ec] = std::from_chars(word, p, v);
    if (ec != std::errc() || last != p) {
      std::string w(word, p);
      char *end = nullptr;
      v = std::strtod(w.c_str(), &end);
      if (!end || *end || w.empty()) {
        std::fprintf(stderr, "approx-qos: error: %s: value %zu ('%s') is not "
                             "a number\n",
                     path, index, w.c_str());
        return false;
      }
    }
    out.push_back(v);
  }
}

bool readLines(const char *path, std::vector<std::string> &out) {
  std::string text;
  if (!readText(path, text))
    return false;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
    if (b != std::string::npos)
      out.push_back(line.substr(b, e - b + 1));
  }
  return true;
}

// Every line of `path`, empty ones included (a generated answer may be
// empty); the newline ending the file starts no line.
bool readEveryLine(const char *path, std::vector<std::string> &out) {
  std::string text;
  if (!readText(path, text))
    return false;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return true;
}

/// Prints the accuracy; fails when it is not a number or stdout cannot be
/// written (a full disk must not pass for a measured accuracy).
int report(double v) {
  if (!std::isfinite(v)) {
    std::fprintf(stderr, "approx-qos: error: the accuracy is not a number\n");
    return 1;
  }
  if (std::printf("%.9f\n", v) < 0 || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "approx-qos: error: cannot write to standard "
                         "output: %s\n", std::strerror(errno));
    return 1;
  }
  return 0;
}

/// The exact output is the reference: a value that is not finite in it is
/// an error (in an approximate output it only scores 0).
bool checkReference(const char *path, const std::vector<double> &values) {
  for (size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i])) {
      std::fprintf(stderr, "approx-qos: error: %s: value %zu is not finite; "
                           "the exact output cannot be a reference\n",
                   path, i + 1);
      return false;
    }
  return true;
}

/// The mean score of a question set's answers: answer containment against
/// question<TAB>answer... lines, or with `graded` the score of each line's
/// kind (question<TAB>kind<TAB>answer...); relative to the exact system's
/// accuracy `exact` when given.
int questionSetAccuracy(const char *answersPath, const char *questionsPath, const char *exact,
                        bool graded, const char *detailPath) {
  double exactAccuracy = 0;
  if (exact) {
    char *end = nullptr;
    exactAccuracy = std::strtod(exact, &end);
    if (!*exact || *end || exactAccuracy < 0 || exactAccuracy > 1) {
      std::fprintf(stderr, "approx-qos: error: exact accuracy '%s' is not a number in "
                   "[0, 1]\n", exact);
      return 1;
    }
  }
  std::vector<std::string> answers, questions;
  if (!readEveryLine(answersPath, answers) || !readEveryLine(questionsPath, questions))
    return 1;
  if (answers.size() != questions.size()) {
    std::fprintf(stderr, "approx-qos: error: %s has %zu answers, %s has %zu questions\n",
                 answersPath, answers.size(), questionsPath, questions.size());
    return 1;
  }
  if (answers.empty()) {
    std::fprintf(stderr, "approx-qos: error: %s: no questions\n", questionsPath);
    return 1;
  }
  double sum = 0;
  std::string detail;
  for (size_t i = 0; i < questions.size(); ++i) {
    std::istringstream fields(questions[i]);
    std::string field, kindName = "text";
    std::vector<std::string> refs;
    std::getline(fields, field, '\t'); // the question
    if (graded)
      std::getline(fields, kindName, '\t');
    while (std::getline(fields, field, '\t'))
      refs.push_back(field);
    approx::qos::AnswerKind kind;
    if (!approx::qos::parseAnswerKind(kindName, kind)) {
      std::fprintf(stderr, "approx-qos: error: %s:%zu: unknown answer kind '%s' (text, number "
                   "or set; expected question<TAB>kind<TAB>answer...)\n", questionsPath, i + 1,
                   kindName.c_str());
      return 1;
    }
    std::string problem = approx::qos::checkGradedReferences(kind, refs);
    if (!problem.empty()) {
      std::fprintf(stderr, "approx-qos: error: %s:%zu: %s (expected question<TAB>%sanswer...)\n",
                   questionsPath, i + 1, problem.c_str(), graded ? "kind<TAB>" : "");
      return 1;
    }
    double score = approx::qos::gradedScore(answers[i], kind, refs);
    sum += score;
    char line[64];
    std::snprintf(line, sizeof line, "q%zu %.17g\n", i + 1, score);
    detail += line;
  }
  if (detailPath) {
    FILE *f = std::fopen(detailPath, "w");
    bool ok = f && std::fwrite(detail.data(), 1, detail.size(), f) == detail.size();
    if (f && std::fclose(f) != 0)
      ok = false;
    if (!ok) {
      std::fprintf(stderr, "approx-qos: error: cannot write '%s': %s\n", detailPath,
                   std::strerror(errno));
      return 1;
    }
  }
  double accuracy = sum / double(questions.size());
  return report(exact ? approx::qos::relativeAccuracy(accuracy, exactAccuracy) : accuracy);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string metric = argv[1];
  const char *detailPath = nullptr;
  if (argc >= 4 && std::strcmp(argv[argc - 2], "--detail") == 0) {
    if (metric != "nq-accuracy" && metric != "graded-accuracy") {
      std::fprintf(stderr, "approx-qos: error: --detail is for nq-accuracy and "
                   "graded-accuracy (per-question scores)\n");
      return 1;
    }
    detailPath = argv[argc - 1];
    argc -= 2;
  }
  if ((metric == "l2" || metric == "relative-error" || metric == "miss-rate" ||
       metric == "image-rmse") &&
      argc == 4) {
    std::vector<double> e, a;
    if (!readNumbers(argv[2], e) || !readNumbers(argv[3], a) ||
        !checkReference(argv[2], e))
      return 1;
    if (e.size() != a.size()) {
      std::fprintf(stderr, "approx-qos: error: %zu exact values but %zu "
                           "approximate ones\n", e.size(), a.size());
      return 1;
    }
    namespace qos = approx::qos;
    return report(metric == "l2"               ? qos::l2Accuracy(e, a)
                  : metric == "relative-error" ? qos::relativeErrorAccuracy(e, a)
                  : metric == "miss-rate"      ? qos::missRateAccuracy(e, a)
                                               : qos::imageRmseAccuracy(e, a));
  }
  if (metric == "l2-matched" && argc == 5) {
    char *end = nullptr;
    long dim = std::strtol(argv[2], &end, 10);
    std::vector<double> e, a;
    if (!end || *end || dim <= 0) {
      std::fprintf(stderr, "approx-qos: error: DIM must be a positive "
                           "integer, got '%s'\n", argv[2]);
      return 1;
    }
    if (!readNumbers(argv[3], e) || !readNumbers(argv[4], a) ||
        !checkReference(argv[3], e))
      return 1;
    if (e.size() != a.size() || e.size() % size_t(dim)) {
      std::fprintf(stderr, "approx-qos: error: need two sets of the same "
                           "number of %ld-dimensional points\n", dim);
      return 1;
    }
    return report(approx::qos::matchedL2Accuracy(e, a, size_t(dim)));
  }
  if ((metric == "rbo" || metric == "footrule") && argc == 4) {
    std::vector<std::string> s, t;
    if (!readLines(argv[2], s) || !readLines(argv[3], t))
      return 1;
    return report(metric == "rbo" ? approx::qos::rbo(s, t)
                                  : approx::qos::footrule(s, t));
  }
  if (metric == "rbo-mean" && argc == 4) {
    std::vector<std::string> s, t;
    if (!readLines(argv[2], s) || !readLines(argv[3], t))
      return 1;
    if (s.size() != t.size() || s.empty()) {
      std::fprintf(stderr, "approx-qos: error: %zu exact rankings but %zu "
                           "approximate ones\n", s.size(), t.size());
      return 1;
    }
    double sum = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      std::vector<std::string> a, b;
      std::istringstream x(s[i]), y(t[i]);
      for (std::string id; x >> id;)
        a.push_back(id);
      for (std::string id; y >> id;)
        b.push_back(id);
      sum += approx::qos::rbo(a, b);
    }
    return report(sum / double(s.size()));
  }
  if ((metric == "nq-accuracy" || metric == "graded-accuracy") && (argc == 4 || argc == 5))
    return questionSetAccuracy(argv[2], argv[3], argc == 5 ? argv[4] : nullptr,
                               metric == "graded-accuracy", detailPath);
  if (metric == "contains" && argc == 4) {
    std::string answer;
    std::vector<std::string> refs;
    if (!readText(argv[2], answer) || !readLines(argv[3], refs))
      return 1;
    return report(approx::qos::answerContainment(answer, refs));
  }
  return usage();
}
