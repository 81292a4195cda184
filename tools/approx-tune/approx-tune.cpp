//===- approx-tune.cpp - tuning approx programs ---------------------------===//
//
//   approx-tune --space kernel.c --list              the tunable parameters
//   approx-tune --space kernel.c --validate c.json   check a configuration
//   approx-tune --space kernel.c --eval 'CMD' --qos-min 0.95 --max-evals 200 \
//               --seed 1 --out DIR                   search the space
//
// The command is run with APPROX_CONFIG=<configuration file>,
// APPROX_INPUT_SET=tuning|evaluation|calibration|screen and APPROX_QOS_DETAIL=<file
// for per-input scores>, and prints `approx-result: time=<seconds>
// qos=<0..1>` (docs/tuning.md).
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Frontend/CImport.h"
#include "approx/Tuner/Distributed.h"
#include "approx/Tuner/Report.h"
#include "approx/Tuner/SpaceFromMLIR.h"
#include "approx/Tuner/Store.h"
#include "approx/Tuner/TuningRun.h"
#include "approx/Support/CrashGuard.h"
#include "approx/Dialect/Approx/IR/SourceCheck.h"
#include "approx/Dialect/Approx/IR/WidenBounds.h"
#include "../common/InputFile.h"
#include "../common/OutputFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <fcntl.h>
#include <unistd.h>
#include <sys/file.h>

using namespace llvm;
namespace tune = approx::tune;

namespace {
cl::OptionCategory spaceCat("Space");
cl::OptionCategory searchCat("Search");
cl::OptionCategory outCat("Results");

cl::opt<std::string> spaceFile(
    "space", cl::desc("Annotated program: .mlir (annotation ops; a transform "
                      "script's tune.knob / tune.alternatives too) or C/C++ "
                      "(`// @approx:` comments)"),
    cl::value_desc("file"), cl::Required, cl::cat(spaceCat));
cl::list<std::string> includeDirs("I", cl::Prefix,
                                  cl::desc("Include directory (C/C++)"),
                                  cl::value_desc("dir"), cl::cat(spaceCat));
cl::list<std::string> defines("D", cl::Prefix, cl::desc("Macro (C/C++)"),
                              cl::value_desc("name[=value]"),
                              cl::cat(spaceCat));
cl::opt<bool> widenBounds(StringRef(approx::kWidenBoundsOption),
                          cl::desc(approx::kWidenBoundsHelp), cl::cat(spaceCat));
cl::opt<std::string> clangPath("clang", cl::desc("clang for C/C++ spaces"),
                               cl::init(APPROX_DEFAULT_CLANG),
                               cl::cat(spaceCat));
cl::opt<bool> list("list", cl::desc("Print the tunable parameters and the "
                                    "sizes of the static and dynamic spaces"),
                   cl::cat(spaceCat));
cl::opt<std::string> validateFile(
    "validate", cl::desc("Check a configuration (flat JSON) against the space"),
    cl::value_desc("config.json"), cl::init(""), cl::cat(spaceCat));

cl::opt<std::string> evalCommand(
    "eval",
    cl::desc("Command measuring one configuration, with APPROX_CONFIG, "
             "APPROX_INPUT_SET and APPROX_QOS_DETAIL set (run directly, or "
             "by /bin/sh -c when it uses shell syntax); it prints "
             "`approx-result: time=<s> qos=<q>`. Starts a search"),
    cl::value_desc("command"), cl::init(""), cl::cat(searchCat));
cl::opt<double> qosMin("qos-min",
                       cl::desc("QoS bound of the best configuration (0..1, default 0.9)"),
                       cl::init(0.9), cl::cat(searchCat));
cl::opt<unsigned> maxEvals("max-evals",
                           cl::desc("Evaluations of candidate configurations (default 100)"),
                           cl::init(100), cl::cat(searchCat));
cl::opt<double> timeBudget("time-budget",
                           cl::desc("Seconds of search, earlier sessions of a resumed "
                                    "run included; 0 = no limit"),
                           cl::init(0), cl::cat(searchCat));
cl::opt<unsigned> seed("seed", cl::desc("Seed of the search (default 1)"), cl::init(1),
                       cl::cat(searchCat));
cl::opt<double> screenBelow(
    "screen-below",
    cl::desc("Screening: measure each candidate first with "
             "APPROX_INPUT_SET=screen (a small part of the tuning inputs, "
             "chosen by the --eval command) and on the tuning set only when "
             "its QoS there is at least this bound, below --qos-min and "
             "0.91 (the 9% level) (default 0: off)"),
    cl::value_desc("qos"), cl::init(0), cl::cat(searchCat));
cl::opt<unsigned> workers(
    "workers",
    cl::desc("Configurations measured at once (concurrent runs share the "
             "machine: their times are noisier; default 1)"),
    cl::init(1), cl::cat(searchCat));
cl::opt<bool> mpi(
    "mpi",
    cl::desc("Spread the evaluations over the ranks of an MPI job: rank 0 "
             "searches and keeps the results store, the other ranks measure "
             "(mpirun -np <workers+1> approx-tune --mpi ...; docs/tuning.md)"),
    cl::cat(searchCat));
cl::opt<unsigned> batch(
    "batch",
    cl::desc("With --mpi: configurations proposed at once (default: the "
             "number of workers); give it for the same run on any number of "
             "workers"),
    cl::init(0), cl::cat(searchCat));
cl::opt<unsigned> repetitions(
    "repetitions",
    cl::desc("Runs per configuration at most, medians kept (default 3); "
             "with N > 1 the exact baseline gets 2N+1 time samples, whose "
             "spread is the noise a speedup must exceed"),
    cl::init(3), cl::cat(searchCat));
cl::opt<double> timeTolerance(
    "time-tolerance",
    cl::desc("Stop repeating a configuration after two runs with the same "
             "QoS whose times differ by at most this fraction of their "
             "median (default 0.02; 0: always --repetitions runs)"),
    cl::init(0.02), cl::cat(searchCat));
cl::opt<double> timeout(
    "timeout",
    cl::desc("Seconds per run before it counts as timed out; 0 = 10x the "
             "exact run + 10 s (the exact run itself: 1 hour)"),
    cl::init(0), cl::cat(searchCat));
enum class Mode { Static, Dynamic };
cl::opt<Mode> mode(
    "mode", cl::desc("Space searched"),
    cl::values(clEnumValN(Mode::Dynamic, "dynamic",
                          "decision trees: thresholds and decisions (default; "
                          "the frontier also keeps the static points' own)"),
               clEnumValN(Mode::Static, "static",
                          "one transform value per knob")),
    cl::init(Mode::Dynamic), cl::cat(searchCat));
cl::opt<bool> holdout(
    "holdout",
    cl::desc("Re-measure the frontier on the evaluation input set "
             "(APPROX_INPUT_SET=evaluation)"),
    cl::cat(searchCat));
cl::opt<std::string> holdoutCommand(
    "holdout-eval",
    cl::desc("Command for the evaluation input set (implies --holdout; "
             "default: the --eval command)"),
    cl::value_desc("command"), cl::init(""), cl::cat(searchCat));
cl::opt<std::string> certify(
    "certify", cl::ValueOptional,
    cl::desc("Certify each level's pick on the calibration input set "
             "(APPROX_INPUT_SET=calibration, per-input scores in "
             "APPROX_QOS_DETAIL): its loss is at most the level with "
             "probability 1-DELTA (default 0.05; docs/tuning.md)"),
    cl::value_desc("DELTA"), cl::cat(searchCat));
cl::opt<tune::BoundKind> certifyBound(
    "certify-bound", cl::desc("The test certification uses"),
    cl::values(clEnumValN(tune::BoundKind::Betting, "betting",
                          "testing by betting (default; tight for paired "
                          "outcomes)"),
               clEnumValN(tune::BoundKind::HoeffdingBentkus,
                          "hoeffding-bentkus",
                          "Hoeffding-Bentkus (Learn-then-Test's)")),
    cl::init(tune::BoundKind::Betting), cl::cat(searchCat));
cl::opt<unsigned> calibrationRepetitions(
    "calibration-repetitions",
    cl::desc("Runs per configuration on the calibration input set (default "
             "1: certification reads the first run's per-input scores, and "
             "a run's time is already a sum over the whole set; the exact "
             "configuration is measured first and last)"),
    cl::init(tune::CertifySettings().repetitions), cl::cat(searchCat));
cl::opt<unsigned> certifyCandidates(
    "certify-candidates",
    cl::desc("With more than N frontier points within the loosest level, "
             "certify only some, chosen on the tuning set: the most accurate, "
             "and for every level and N loss targets evenly spaced up to the "
             "loosest, the fastest point within it (a dynamic run's static "
             "points apart from the rest; default 0: every point)"),
    cl::value_desc("N"), cl::init(0), cl::cat(searchCat));
cl::opt<std::string> calibrationCommand(
    "calibration-eval",
    cl::desc("Command for the calibration input set (implies --certify; "
             "default: the --eval command)"),
    cl::value_desc("command"), cl::init(""), cl::cat(searchCat));
cl::list<std::string> startFrom(
    "start-from",
    cl::desc("Measure these configurations first: a flat JSON configuration "
             "(best_config.json) or a pareto.csv of an earlier run, e.g. the "
             "static frontier when tuning the dynamic space (repeatable)"),
    cl::value_desc("file"), cl::cat(searchCat));
cl::opt<bool> quiet("quiet",
                    cl::desc("No progress lines (the search's, and the "
                             "frontier's re-measurement on the evaluation and "
                             "calibration sets)"),
                    cl::cat(searchCat));

cl::opt<std::string> outDir(
    "out",
    cl::desc("Directory for best_config.json, pareto.csv, tuned.mlir, "
             "plot.svg, speedup.txt, summary.json and the store"),
    cl::value_desc("dir"), cl::init(""), cl::cat(outCat));
cl::opt<std::string> dbPath(
    "db", cl::desc("Results store (SQLite); default <out>/tune.db"),
    cl::value_desc("file"), cl::init(""), cl::cat(outCat));
cl::opt<bool> resume(
    "resume",
    cl::desc("Continue the latest run of this space and mode in the store"),
    cl::cat(outCat));
cl::opt<bool> history(
    "history",
    cl::desc("Print the evaluations of the latest run of this space and mode "
             "in the store (CSV)"),
    cl::cat(outCat));

int fail(const Twine &msg) { return approx::tools::fail("approx-tune", msg); }

/// SIGINT/SIGTERM/SIGHUP (via LLVM's handler): stop the running evaluations
/// and exit; every finished evaluation is already in the store, and an
/// interrupted store transaction is rolled back when it is next opened.
void onInterrupt() {
  tune::killRunningEvaluations();
  tune::removeEvaluationFiles();
  static const char msg[] = "approx-tune: interrupted; running evaluations "
                            "stopped, measured ones kept in the results "
                            "store (--resume continues)\n";
  ssize_t ignored = ::write(2, msg, sizeof msg - 1);
  (void)ignored;
  ::_exit(130);
}

std::string valuesOf(const tune::TunableParam &p) {
  if (p.kind == tune::ParamKind::Threshold)
    return "[" + std::to_string(p.lower) + ", " + std::to_string(p.upper) + "]";
  std::string s = "{";
  for (size_t i = 0; i < p.values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(p.values[i]);
  return s + "}";
}

void printSpace(const tune::Space &space) {
  outs() << format("%-36s %-9s %-16s %-8s %-24s %s\n", "parameter", "kind",
                   "range", "current", "function", "index");
  for (const tune::TunableParam &p : space.params)
    outs() << format("%-36s %-9s %-16s %-8lld %-24s %u\n", p.name.c_str(),
                     tune::kindName(p.kind), valuesOf(p).c_str(),
                     (long long)p.current, p.function.c_str(), p.index);
  // Knobs in func_substitute variants: what runs them.
  bool first = true;
  for (size_t k = 0; k < space.knobs.size(); ++k)
    if (const std::optional<tune::Gate> &g = space.knobs[k].gate)
      outs() << (std::exchange(first, false) ? "\n" : "")
             << formatv("knob '{0}' (in {1}) runs only when '{2}' selects "
                        "{3}{4}\n",
                        space.knobs[k].name, space.knobs[k].function,
                        space.knobs[g->knob].name, g->value,
                        space.reachable(k)
                            ? ""
                            : ", which it cannot: its parameters are "
                              "don't-care, left out of the search");
  outs() << format("\n%zu knobs, %zu parameters; space size: static %.4g, "
                   "dynamic %.4g (configurations that run different code)\n",
                   space.knobs.size(), space.params.size(), space.size(false),
                   space.size(true));
}

int validate(const tune::Space &space) {
  tune::Config config;
  std::string error;
  if (!tune::readConfig(validateFile, config, error))
    return fail(error);
  std::vector<std::string> problems = space.validate(config);
  for (const std::string &p : problems)
    errs() << validateFile << ": error: " << p << "\n";
  if (!problems.empty())
    return 1;
  outs() << validateFile << ": valid (" << config.size() << " of "
         << space.params.size() << " parameters set)\n";
  return 0;
}

/// The configurations of --start-from, complete and checked against the
/// space searched; an error message or "".
std::string loadStart(const tune::Space &space, bool dynamic,
                      std::vector<tune::Config> &configs) {
  for (const std::string &path : startFrom) {
    std::vector<tune::Config> read;
    std::vector<size_t> lines; // of a pareto.csv's rows
    std::string error;
    bool csv = StringRef(path).ends_with(".csv");
    if (csv) {
      if (!tune::readParetoCsv(path, space, read, lines, error))
        return error;
    } else {
      read.emplace_back();
      if (!tune::readConfig(path, read.back(), error))
        return error;
    }
    for (size_t i = 0; i < read.size(); ++i) {
      std::string where = csv ? path + ":" + std::to_string(lines[i]) : path;
      if (!space.toStart(read[i], dynamic, error))
        return where + ": " + error;
      configs.push_back(std::move(read[i]));
    }
  }
  return "";
}

std::string storePath() {
  if (!dbPath.empty())
    return dbPath;
  SmallString<256> p(outDir);
  sys::path::append(p, "tune.db");
  return std::string(p);
}

int printHistory(const tune::Space &space) {
  std::string error;
  auto store = tune::Store::open(storePath(), error);
  if (!store)
    return fail(error);
  bool dynamic = mode == Mode::Dynamic;
  std::optional<tune::RunInfo> run;
  if (!store->lastRun(tune::spaceFingerprint(space, dynamic), run, error))
    return fail(error);
  if (!run)
    return fail("no " + Twine(dynamic ? "dynamic" : "static") +
                " run of this space in '" + storePath() + "'");
  outs() << "run,seq,input_set,technique,status,time_s,qos,config,message\n";
  for (tune::InputSet set : {tune::InputSet::Tuning, tune::InputSet::Evaluation,
                             tune::InputSet::Calibration}) {
    std::vector<tune::Evaluation> evaluations;
    if (!store->evaluations(run->id, set, evaluations, error))
      return fail(error);
    for (const tune::Evaluation &e : evaluations) {
      std::string message = e.result.message;
      std::replace(message.begin(), message.end(), '"', '\'');
      outs() << run->id << "," << e.seq << "," << tune::inputSetName(set)
             << "," << e.technique << "," << tune::statusName(e.result.status)
             << "," << format("%.6g", e.result.time) << ","
             << format("%.6g", e.result.qos) << ",\""
             << tune::formatConfig(e.config) << "\",\"" << message << "\"\n";
    }
  }
  return 0;
}

/// The progress line: on a terminal rewritten in place, else one line per
/// tenth of the budget.
struct ProgressPrinter {
  bool tty = sys::Process::StandardErrIsDisplayed();
  size_t lastPrinted = 0;
  /// The input set of the re-measurement under way, if one is.
  std::optional<tune::InputSet> remeasuring;
  void operator()(const tune::Progress &p) {
    if (skip(p.evaluations, p.maxEvals))
      return;
    print(tune::progressLine(p));
  }
  /// The frontier's re-measurement on `set`: `done` of at most `most`.
  void remeasured(tune::InputSet set, size_t done, size_t most) {
    if (remeasuring != set) {
      end();
      remeasuring = set;
      lastPrinted = 0;
    }
    if (done != 1 && skip(done, most))
      return;
    lastPrinted = done;
    print(tune::remeasureLine(set, done, most));
  }
  void done() { end(); }

private:
  /// Not a terminal: a line per tenth of the work, and the last.
  bool skip(size_t done, size_t most) {
    size_t step = std::max<size_t>(1, most / 10);
    if (!tty && done < most && done / step == lastPrinted / step)
      return true;
    lastPrinted = done;
    return false;
  }
  void print(const std::string &line) {
    errs() << (tty ? "\r\033[K" : "") << "approx-tune: " << line
           << (tty ? "" : "\n");
  }
  void end() {
    if (tty && lastPrinted)
      errs() << "\n";
    lastPrinted = 0;
  }
};

/// The files a search writes into --out.
const char *const kOutputFiles[] = {"best_config.json", "pareto.csv",
                                    "tuned.mlir",       "plot.svg",
                                    "speedup.txt",      "summary.json"};

/// The files the run reads: none may be overwritten by its outputs.
std::vector<std::string> runInputs() {
  std::vector<std::string> inputs = {spaceFile, validateFile, dbPath};
  inputs.insert(inputs.end(), startFrom.begin(), startFrom.end());
  return inputs;
}

int writeOutput(StringRef name, StringRef text) {
  SmallString<256> p(outDir);
  sys::path::append(p, name);
  if (approx::tools::checkNotAnInput("approx-tune", p, runInputs()))
    return 1;
  return approx::tools::writeText("approx-tune", p, text);
}

/// Whether an output of this run is also one of its inputs (a --start-from
/// file in --out): said before the search rather than after it.
bool anOutputIsAnInput() {
  std::vector<std::string> names(std::begin(kOutputFiles), std::end(kOutputFiles));
  for (double loss : tune::lossLevels())
    names.push_back(tune::levelConfigFile(loss));
  for (const std::string &name : names) {
    SmallString<256> p(outDir);
    sys::path::append(p, name);
    if (approx::tools::checkNotAnInput("approx-tune", p, runInputs()))
      return true;
  }
  return false;
}

/// With --mpi, on rank 0: hands evaluations to the other ranks.
std::unique_ptr<tune::distributed::Coordinator> coordinator;
unsigned mpiWorkers = 0;

/// Runs evaluations of `command` here, or on the MPI workers.
tune::EvaluateFn makeEvaluator(const tune::CommandOptions &command) {
  return coordinator ? coordinator->evaluator(command)
                     : tune::commandEvaluator(command);
}

/// Checks the search options; an error message or "".
std::string checkOptions() {
  if (outDir.empty())
    return "--eval needs --out DIR for the results";
  if (!(qosMin >= 0 && qosMin <= 1))
    return "--qos-min must be within [0, 1]";
  if (maxEvals == 0)
    return "--max-evals must be at least 1";
  // Below every QoS a pick is made at (the bound, each loss level), so
  // that screening rules out no pick.
  double loosest = std::min(double(qosMin), 1 - tune::lossLevels().back());
  if (!(screenBelow >= 0 && (screenBelow == 0 || screenBelow < loosest)))
    return "--screen-below must be 0 (off) or within (0, " +
           formatv("{0}", format("%g", loosest)).str() +
           "): below --qos-min and each reported loss level's QoS, so that "
           "no pick is screened out";
  if (workers == 0)
    return "--workers must be at least 1";
  if (mpi && workers.getNumOccurrences())
    return "--workers is for local runs; with --mpi the workers are the "
           "MPI ranks after the first (and --batch sets how many "
           "configurations are proposed at once)";
  if (batch.getNumOccurrences() && !mpi)
    return "--batch is for --mpi runs (locally, --workers)";
  if (repetitions == 0)
    return "--repetitions must be at least 1";
  if (!(timeTolerance >= 0))
    return "--time-tolerance must be at least 0";
  if (!(timeout >= 0 && timeout < 1e9) || !(timeBudget >= 0 && timeBudget < 1e12))
    return "--timeout and --time-budget must be non-negative numbers of seconds";
  return "";
}

/// --certify's settings; an error message or "".
std::string certifySettings(std::optional<tune::CertifySettings> &out) {
  if (!certify.getNumOccurrences() && calibrationCommand.empty()) {
    if (certifyBound.getNumOccurrences())
      return "--certify-bound is for certified runs: add --certify";
    if (calibrationRepetitions.getNumOccurrences())
      return "--calibration-repetitions is for certified runs: add --certify";
    if (certifyCandidates.getNumOccurrences())
      return "--certify-candidates is for certified runs: add --certify";
    return "";
  }
  if (calibrationRepetitions == 0)
    return "--calibration-repetitions must be at least 1";
  tune::CertifySettings cs;
  cs.bound = certifyBound;
  cs.repetitions = calibrationRepetitions;
  cs.candidates = certifyCandidates;
  if (!certify.empty()) {
    char *end = nullptr;
    errno = 0;
    cs.delta = std::strtod(certify.c_str(), &end);
    if (*end || errno || !(cs.delta > 0 && cs.delta < 1))
      return "--certify=" + certify +
             ": the error level must be a number in (0, 1), e.g. 0.05";
  }
  out = cs;
  return "";
}

int runSearch(mlir::ModuleOp module, const tune::Space &space) {
  if (std::string problem = checkOptions(); !problem.empty())
    return fail(problem);
  if (space.params.empty())
    return fail("'" + spaceFile + "' has no approx annotations: nothing to tune");
  bool dynamic = mode == Mode::Dynamic;
  tune::RunSettings settings;
  if (std::string problem = certifySettings(settings.certify); !problem.empty())
    return fail(problem);
  if (std::string problem = loadStart(space, dynamic, settings.options.start);
      !problem.empty())
    return fail("--start-from: " + problem);
  if (std::error_code ec = sys::fs::create_directories(outDir))
    return fail("cannot create '" + outDir + "': " + ec.message());
  if (anOutputIsAnInput())
    return 1;
  // One run writes a results directory at a time (two used to both report
  // success, each overwriting the other's files); the lock goes with the
  // process.
  {
    SmallString<256> lock(outDir);
    sys::path::append(lock, ".approx-tune.lock");
    int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0)
      return fail("another approx-tune run is writing '" + outDir +
                  "' (or its lock file cannot be taken): wait for it or "
                  "use another --out");
  }
  // Ctrl-C or a SIGTERM ends the evaluations too (each runs in its own
  // process group); what was measured is already in the store.
  sys::SetInterruptFunction(onInterrupt);

  tune::TuneOptions &options = settings.options;
  options.qosMin = qosMin;
  options.maxEvals = maxEvals;
  options.timeBudget = timeBudget;
  options.seed = seed;
  options.screenBelow = screenBelow;
  options.baselineSamples = tune::TuneOptions::baselineSamplesFor(repetitions);
  // With --mpi the batch is the run's "workers" (stored, and required the
  // same on --resume): the number of workers does not change the run.
  unsigned batchSize = mpi ? (batch ? unsigned(batch) : mpiWorkers) : unsigned(workers);
  options.workers = batchSize;
  options.dynamic = dynamic;
  settings.spaceName = spaceFile;
  settings.command = evalCommand;
  settings.storePath = storePath();
  settings.resume = resume ? tune::Resume::Required : tune::Resume::No;
  // A resumed run replays the stored one: the options given must match.
  settings.checkResume = [&](const tune::RunInfo &run) -> std::string {
    if (seed.getNumOccurrences() && seed != run.seed)
      return "--seed " + std::to_string(seed) +
             " differs from the stored run's seed " + std::to_string(run.seed);
    if (qosMin.getNumOccurrences() && qosMin != run.qosMin)
      return formatv("--qos-min {0} differs from the stored run's {1}",
                     double(qosMin), run.qosMin);
    if ((workers.getNumOccurrences() || batch.getNumOccurrences()) &&
        batchSize != run.workers)
      return std::string(mpi ? "--batch " : "--workers ") +
             std::to_string(batchSize) + " differs from the stored run's " +
             std::to_string(run.workers);
    return "";
  };
  settings.holdout = holdout || !holdoutCommand.empty();
  settings.warn = [](const std::string &problem) {
    WithColor::warning(errs(), "approx-tune") << problem << "\n";
  };
  ProgressPrinter progress;
  if (!quiet) {
    options.onProgress = [&](const tune::Progress &p) { progress(p); };
    settings.onRemeasure = [&](tune::InputSet set, size_t done, size_t most) {
      progress.remeasured(set, done, most);
    };
  }

  tune::TuningRun run(space, std::move(settings));
  std::string error;
  if (!run.open(error))
    return fail(resume ? "--resume: " + error : error);

  // Each input set's command, its timeout set by its exact run (or
  // --timeout).
  tune::CommandOptions command{evalCommand, repetitions, 0, timeTolerance};
  auto evaluatorFor = [&](const std::string &cmd, unsigned runs) {
    tune::CommandOptions o = command;
    if (!cmd.empty())
      o.command = cmd;
    o.repetitions = runs;
    return tune::calibratedCommandEvaluator(o, timeout, makeEvaluator);
  };
  tune::EvaluateFn evaluate = tune::perInputSet(
      evaluatorFor("", repetitions), evaluatorFor(holdoutCommand, repetitions),
      evaluatorFor(calibrationCommand, calibrationRepetitions));
  bool ok = run.execute(evaluate, error);
  progress.done();
  if (!ok)
    return fail(StringRef(error).starts_with("the exact configuration failed (")
                    ? error + "\n  command: " + evalCommand
                    : error);

  const tune::TuneResult &result = run.result();
  bool certified = false;
  const tune::Evaluation &best = run.best(certified);
  if (failed(tune::applyToAnnotations(module, best.config)))
    return 1;
  std::string tuned;
  raw_string_ostream tunedOs(tuned);
  module.print(tunedOs);
  for (const auto &[name, text] : run.outputFiles())
    if (writeOutput(name, text))
      return 1;
  if (writeOutput("tuned.mlir", tuned))
    return 1;

  const tune::Report &report = run.report();
  double qosBound = run.options().qosMin;
  double base = result.evaluations[0].result.time;
  outs() << spaceFile << " " << report.mode << " space of "
         << format("%.4g", report.spaceSize) << " configurations: "
         << result.evaluations.size() - 1 << " evaluations (" << result.failed
         << " failed"
         << (result.screened
                 ? ", " + std::to_string(result.screened) + " screened out"
                 : std::string())
         << ")" << (result.exhaustive ? ", exhaustive" : "") << ", "
         << format("%.1f", result.seconds) << " s; " << result.stopReason
         << "\n";
  if (certified) {
    const tune::Certification &c = *report.certification;
    if (best.config == result.evaluations[0].config)
      outs() << formatv("certified at qos >= {0} (delta {1}): no approximate "
                        "configuration; best_config.json is the exact "
                        "configuration\n",
                        qosBound, c.delta);
    else
      outs() << formatv("certified at qos >= {0} (delta {1}, {2} calibration "
                        "inputs): {3:f2}x on the tuning set -> "
                        "{4}/best_config.json\n",
                        qosBound, c.delta, c.measured.baseline.detail.size(),
                        base / best.result.time, outDir);
  } else if (result.best > 0) {
    outs() << formatv("best with qos >= {0}: {1:f2}x (qos {2:f4}) -> "
                      "{3}/best_config.json\n",
                      qosBound, base / best.result.time, best.result.qos,
                      outDir);
  } else {
    outs() << "no approximate configuration met qos >= " << qosBound
           << "; best_config.json is the exact configuration\n";
  }
  outs() << report.speedupTable();
  return 0;
}

} // namespace

int runTool(); // the tool on this process (below main)

namespace {

/// --mpi: rank 0 runs the tool with a coordinator, the others measure.
int runDistributed(int argc, char **argv) {
  namespace dist = tune::distributed;
  if (!dist::available())
    return fail("--mpi: this approx-tune was built without MPI (apt install "
                "libopenmpi-dev openmpi-bin, then rebuild)");
  if (evalCommand.empty())
    return fail("--mpi needs --eval");
  dist::World world = dist::init(argc, argv);
  int rc;
  if (world.rank > 0) {
    rc = dist::serveWorker();
  } else if (world.size < 2) {
    rc = fail("--mpi needs at least 2 ranks (mpirun -np <workers+1> "
              "approx-tune --mpi ...)");
  } else {
    mpiWorkers = unsigned(world.size - 1);
    dist::Coordinator::Options o;
    o.onWorkerLost = [silence = o.lostAfterSeconds](int rank,
                                                    const std::string &) {
      WithColor::warning(errs(), "approx-tune")
          << "MPI worker rank " << rank << " is lost (silent for "
          << formatv("{0:f0}", silence)
          << " s); its evaluation goes to another worker\n";
    };
    o.onAllLost = [] {
      WithColor::error(errs(), "approx-tune")
          << "every MPI worker is lost; the results store keeps every "
             "finished evaluation: run again with --resume\n";
      std::_Exit(1);
    };
    coordinator = std::make_unique<dist::Coordinator>(world, std::move(o));
    rc = runTool();
    bool lost = coordinator->liveWorkers() < mpiWorkers;
    coordinator.reset(); // stops the workers
    if (lost) {
      outs().flush();
      dist::abortJob(rc);
    }
  }
  dist::finalize();
  return rc;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  approx::tools::showOnlyOwnOptions({&spaceCat, &searchCat, &outCat});
  cl::ParseCommandLineOptions(
      argc, argv,
      "approx-tune: configuration spaces of approx programs, and their "
      "tuning\n");
  if (!list && validateFile.empty() && evalCommand.empty() && !history)
    return fail("nothing to do: give --list, --validate, --eval or --history");
  if ((history || resume) && dbPath.empty() && outDir.empty())
    return fail("--history and --resume need --out DIR or --db FILE");
  if (mpi)
    return runDistributed(argc, argv);
  return runTool();
}

int runTool() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllFromLLVMIRTranslations(registry);
  approx::registerApproxDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.printOpOnDiagnostic(false);
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);

  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (StringRef(spaceFile).ends_with(".mlir")) {
    std::unique_ptr<MemoryBuffer> file =
        approx::tools::readInput("approx-tune", spaceFile);
    if (!file)
      return 1;
    sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
    if (approx::reportSourceProblems(sourceMgr, errs()))
      return 1;
    if (!approx::runGuarded("approx-tune", "parsing '" + spaceFile + "'", [&] {
          // Widening happens between parsing and verification.
          module = mlir::parseSourceFile<mlir::ModuleOp>(
              sourceMgr, mlir::ParserConfig(&ctx, !widenBounds));
        }))
      return 1;
    if (module && widenBounds) {
      approx::widenAnnotationBounds(*module);
      if (failed(mlir::verify(*module)))
        return 1;
    }
  } else {
    approx::CImportOptions options;
    options.clangPath = clangPath;
    for (const std::string &d : includeDirs)
      options.clangArgs.push_back("-I" + d);
    for (const std::string &d : defines)
      options.clangArgs.push_back("-D" + d);
    options.widenBounds = widenBounds;
    module = approx::importCSource(ctx, spaceFile, options);
  }
  if (!module)
    return 1;
  FailureOr<tune::Space> spaceOr = tune::spaceFromAnnotations(*module);
  if (failed(spaceOr))
    return 1;
  const tune::Space &space = *spaceOr;

  if (list)
    printSpace(space);
  if (!validateFile.empty())
    if (int rc = validate(space))
      return rc;
  if (history)
    if (int rc = printHistory(space))
      return rc;
  if (!evalCommand.empty())
    return runSearch(*module, space);
  return 0;
}
