//===- Tune.cpp - approx_runtime._core: the tuner with a Python evaluator -===//
//
// `start_tune` runs approx::tune::tune on a thread of its own with a Python
// callable as the evaluator (the GIL is taken only around Python calls), so
// the calling thread can wait with the GIL released and still see Ctrl-C:
// approx_runtime.tune waits in short slices, and on KeyboardInterrupt asks
// the search to stop (evaluations under way finish and are stored; a second
// Ctrl-C abandons them, unrecorded) before re-raising. Each Python call goes
// through approx_runtime.tuning's _call_with_timeout (`caller`), which runs
// it on a thread of its own and gives up after the evaluation's timeout
// (given, or derived from the first measurement as approx-tune does). The run is approx::tune::TuningRun, as approx-tune's: the
// results store (`resume` continues the latest run of the same space), the
// held-out re-measurement, certification and the reports.
//
//===----------------------------------------------------------------------===//
#include "Core.h"

#include "approx/Tuner/TuningRun.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace nb = nanobind;
namespace tune = approx::tune;

namespace approx::python {
namespace {

nb::dict toDict(const tune::Config &c) {
  nb::dict d;
  for (const auto &[k, v] : c)
    d[k.c_str()] = v;
  return d;
}

/// "TypeError: message" of a Python exception.
std::string shortMessage(const nb::python_error &e) {
  std::string type = nb::cast<std::string>(e.type().attr("__name__"));
  std::string value = nb::cast<std::string>(nb::str(e.value()));
  return value.empty() ? type : type + ": " + value;
}

void writeStderr(const std::string &text) {
  nb::module_::import_("sys").attr("stderr").attr("write")(text);
}

struct TuneArgs {
  std::string mlir, filename, database, command;
  double accuracyThreshold = 0.9, timeBudget = 0;
  /// Certification's error level; 0: no certification.
  double certifyDelta = 0;
  /// Seconds per evaluation; 0: derived from the first measurement.
  double timeout = 0;
  /// Calls per configuration at most, medians kept, stopping early when two
  /// agree (tune::repeatMeasurement, as approx-tune's --repetitions and
  /// --time-tolerance).
  unsigned repetitions = 3;
  double timeTolerance = 0.02;
  /// caller(fn, config, timeout): the evaluator call with its timeout;
  /// raises EvaluationTimeout or EvaluationAbandoned.
  nb::object caller;
  tune::BoundKind bound = tune::BoundKind::Betting;
  /// CertifySettings::candidates (0: every frontier point).
  size_t certifyCandidates = 0;
  unsigned parallelism = 1;
  size_t maxEvals = 100;
  uint64_t seed = 1;
  bool dynamic = true, resume = false, progress = true;
  /// Measured first, after the baseline (e.g. the static frontier when
  /// searching the dynamic space).
  std::vector<tune::Config> startFrom;
};

class TuneJob {
public:
  TuneJob(const TuneArgs &args, nb::callable evaluate, nb::object holdout,
          nb::object calibration, nb::object callback)
      : args(args), evaluate(std::move(evaluate)), holdout(std::move(holdout)),
        calibration(std::move(calibration)), callback(std::move(callback)) {
    space = spaceOf(args.mlir, args.filename);
    if (space.params.empty())
      throw nb::value_error(
          (args.filename + ": no approx annotations: nothing to tune").c_str());
    if (!(args.accuracyThreshold >= 0 && args.accuracyThreshold <= 1))
      throw nb::value_error("accuracy_threshold must be within [0, 1]");
    if (!(args.timeBudget >= 0 && args.timeBudget < 1e12))
      throw nb::value_error("time_budget must be a non-negative number of seconds");
    if (args.parallelism == 0 || args.maxEvals == 0)
      throw nb::value_error("parallelism and max_evals must be at least 1");
    if (!(args.certifyDelta >= 0 && args.certifyDelta < 1))
      throw nb::value_error("certify must be an error level in (0, 1), e.g. 0.05");
    if (args.certifyDelta > 0 && this->calibration.is_none())
      throw nb::value_error(
          "certify needs calibration_fn: the evaluator of the calibration "
          "inputs (disjoint from the tuning and held-out ones), returning "
          "per-input scores");
    tune::RunSettings settings;
    tune::TuneOptions &options = settings.options;
    options.qosMin = args.accuracyThreshold;
    options.maxEvals = args.maxEvals;
    options.timeBudget = args.timeBudget;
    options.seed = args.seed;
    options.workers = args.parallelism;
    options.dynamic = args.dynamic;
    options.baselineSamples = tune::TuneOptions::baselineSamplesFor(args.repetitions);
    for (size_t i = 0; i < args.startFrom.size(); ++i)
      options.start.push_back(startConfig(i));
    options.onProgress = [this](const tune::Progress &p) { progressed(p); };
    settings.onRemeasure = [this](tune::InputSet set, size_t done, size_t most) {
      remeasured(set, done, most);
    };
    options.stop = [this] { return stopRequested.load(); };
    settings.spaceName = args.filename;
    settings.command = args.command;
    settings.storePath = args.database;
    // No stored run of this space: resuming starts it.
    settings.resume = args.resume ? tune::Resume::IfStored : tune::Resume::No;
    settings.checkResume = [this](const tune::RunInfo &run) -> std::string {
      if (run.qosMin != this->args.accuracyThreshold ||
          run.workers != this->args.parallelism || run.seed != this->args.seed)
        return "resume: the stored run of this space in '" +
               this->args.database + "' used accuracy_threshold " +
               std::to_string(run.qosMin) + ", parallelism " +
               std::to_string(run.workers) + ", seed " +
               std::to_string(run.seed) + ": give the same values";
      return "";
    };
    settings.holdout = !this->holdout.is_none();
    if (args.certifyDelta > 0) {
      settings.certify = tune::CertifySettings{args.certifyDelta, args.bound};
      settings.certify->candidates = args.certifyCandidates;
    }
    settings.onEvaluation = [this](const tune::Evaluation &e) {
      return recorded(e);
    };
    settings.warn = [this](const std::string &problem) {
      nb::gil_scoped_acquire gil;
      writeStderr("approx_runtime.tune: warning: " + problem + "\n");
    };
    run = std::make_unique<tune::TuningRun>(space, std::move(settings));
    std::string error;
    if (!run->open(error))
      throw nb::value_error(error.c_str());
    thread = std::thread([this] { search(); });
  }

  ~TuneJob() {
    stopRequested = true;
    if (thread.joinable()) {
      nb::gil_scoped_release release;
      thread.join();
    }
  }

  /// True once the search has ended; waits up to `timeout` seconds
  /// (forever when negative) with the GIL released.
  bool wait(double timeout) {
    nb::gil_scoped_release release;
    std::unique_lock<std::mutex> lock(mutex);
    if (timeout < 0)
      cv.wait(lock, [this] { return done; });
    else
      cv.wait_for(lock, std::chrono::duration<double>(timeout),
                  [this] { return done; });
    return done;
  }

  void stop() { stopRequested = true; }

  nb::dict result() {
    if (thread.joinable()) {
      nb::gil_scoped_release release;
      thread.join();
    }
    if (!callbackError.empty())
      throw std::runtime_error("result_callback raised " + callbackError);
    if (!runError.empty())
      throw std::runtime_error(runError);
    const tune::TuneResult &res = run->result();
    const tune::Evaluation &base = res.evaluations[0];
    bool certified = false;
    const tune::Evaluation &best = run->best(certified);
    nb::dict d;
    d["best_config"] = toDict(space.complete(best.config));
    d["best_mlir"] = applyConfig(args.mlir, best.config, args.filename);
    d["best_time"] = best.result.time * 1000;
    d["best_accuracy"] = best.result.qos;
    d["best_certified"] = certified;
    d["met_threshold"] = res.best >= 0;
    d["baseline_time"] = base.result.time * 1000;
    d["baseline_accuracy"] = base.result.qos;
    d["speedup"] = base.result.time / best.result.time;
    // The search's fastest configuration meeting the bound, when its
    // speedup was within the baseline's noise (so best_* is the exact one).
    d["within_noise"] = nb::none();
    if (res.best >= 0) {
      double s = base.result.time / res.evaluations[size_t(res.best)].result.time;
      if (!certified && res.withinNoise(s))
        d["within_noise"] = s;
    }
    nb::list frontier;
    for (size_t i : res.frontier) {
      const tune::Evaluation &e = res.evaluations[i];
      nb::dict f;
      f["config"] = toDict(e.config);
      f["time"] = e.result.time * 1000;
      f["accuracy"] = e.result.qos;
      f["static"] = tune::isStatic(space, e.config);
      frontier.append(f);
    }
    d["frontier"] = frontier;
    d["evaluations"] = res.evaluations.size() - 1;
    d["new_evaluations"] = res.newEvaluations;
    d["failed"] = res.failed;
    d["stop_reason"] = res.stopReason;
    d["seconds"] = res.seconds;
    // An int while the count is exact in a double (below 2^53: every
    // partial product is then exact too); a float beyond.
    double size = space.size(args.dynamic);
    if (size < 9007199254740992.0)
      d["space_size"] = static_cast<long long>(size);
    else
      d["space_size"] = size;
    d["run_id"] = run->runInfo().id;
    d["interrupted"] = stopRequested.load();
    // What approx-tune writes into --out: summary.json (held-out and
    // certified results, each level's pick), speedup.txt, pareto.csv, ...
    nb::dict outputs;
    if (!stopRequested.load())
      for (const auto &[name, text] : run->outputFiles())
        outputs[name.c_str()] = text;
    d["outputs"] = outputs;
    return d;
  }

private:
  /// start_from[i], complete and checked against the space searched.
  tune::Config startConfig(size_t i) const {
    tune::Config c = args.startFrom[i];
    std::string why;
    if (!space.toStart(c, args.dynamic, why))
      throw nb::value_error(
          ("start_from[" + std::to_string(i) + "]: " + why).c_str());
    return c;
  }

  TuneArgs args;
  nb::callable evaluate;
  nb::object holdout, calibration; // callables or None
  nb::object callback;
  tune::Space space;
  std::unique_ptr<tune::TuningRun> run;
  bool evalWarned = false, tty = false, printed = false,
       remeasuring = false; // a re-measurement line was printed
  std::chrono::steady_clock::time_point lastPrint;
  std::optional<tune::Progress> unprinted;

  std::thread thread;
  std::mutex mutex; // guards `done`, `interrupted`, `callbackError`
  std::condition_variable cv;
  bool done = false;
  std::atomic<bool> stopRequested{false};
  std::set<std::string> interrupted; // evaluations ended by Ctrl-C
  std::map<std::string, double> derivedTimeouts; // per evaluator name
  nb::object timeoutType = nb::module_::import_("approx_runtime.tuning")
                               .attr("EvaluationTimeout"),
             abandonedType = nb::module_::import_("approx_runtime.tuning")
                                 .attr("EvaluationAbandoned");
  std::string callbackError, runError;

  void search() {
    auto with = [this](nb::handle fn, unsigned repetitions) {
      return [this, fn, repetitions](const tune::Config &c, tune::InputSet) {
        return tune::repeatMeasurement([&] { return measure(fn, c); }, repetitions,
                                       args.timeTolerance);
      };
    };
    tune::EvaluateFn fn = tune::perInputSet(
        with(evaluate, args.repetitions), with(holdout, args.repetitions),
        with(calibration, tune::CertifySettings().repetitions));
    std::string error;
    if (!run->execute(fn, error))
      runError = error;
    endProgress();
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    cv.notify_all();
  }

  /// Per-input scores a callable returned: {id: score} or a sequence of
  /// scores (ids are their positions). "" or why they are unusable.
  static std::string readScores(nb::handle scores,
                                std::vector<tune::InputScore> &detail) {
    std::vector<std::pair<std::string, nb::handle>> items;
    if (nb::isinstance<nb::dict>(scores)) {
      for (auto [k, v] : nb::borrow<nb::dict>(scores))
        items.emplace_back(nb::cast<std::string>(nb::str(k)), v);
    } else if (nb::isinstance<nb::sequence>(scores) &&
               !nb::isinstance<nb::str>(scores)) {
      size_t i = 0;
      for (nb::handle v : scores)
        items.emplace_back(std::to_string(i++), v);
    } else {
      return "per-input scores must be a dict {input id: score} or a "
             "sequence of scores, not " +
             nb::cast<std::string>(nb::repr(scores));
    }
    std::string text;
    for (const auto &[id, v] : items) {
      if (id.empty() || id.find_first_of(" \t\r\n") != std::string::npos)
        return "per-input score id " + nb::cast<std::string>(nb::repr(nb::str(id.c_str()))) +
               " is empty or has whitespace";
      double score = 0;
      if (!nb::try_cast<double>(v, score))
        return "per-input score of '" + id + "' is not a number";
      char buf[40];
      std::snprintf(buf, sizeof buf, " %.17g\n", score);
      text += id + buf;
    }
    std::string error;
    if (!tune::parseQosDetail(text, "per-input scores", detail, error))
      return error;
    return "";
  }

  /// The timeout of a call of evaluator `name`: given, or kFirstRunTimeout
  /// until its first measurement, then derived from that one's wall time.
  double timeoutOf(const std::string &name) {
    if (args.timeout > 0)
      return args.timeout;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = derivedTimeouts.find(name);
    return it != derivedTimeouts.end() ? it->second : tune::kFirstRunTimeout;
  }

  tune::Measurement measure(nb::handle fn, const tune::Config &c) {
    tune::Measurement m;
    m.status = tune::EvalStatus::Failed;
    if (stopRequested) {
      m.message = "stopped before it ran";
      std::lock_guard<std::mutex> lock(mutex);
      interrupted.insert(tune::formatConfig(c));
      return m;
    }
    nb::gil_scoped_acquire gil;
    std::string name = fn.is(evaluate)        ? "evaluate_fn"
                       : fn.is(holdout)       ? "holdout_fn"
                                              : "calibration_fn";
    double timeout = timeoutOf(name);
    auto start = std::chrono::steady_clock::now();
    try {
      nb::object r = args.caller(fn, toDict(c), timeout);
      {
        double wall = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
        std::lock_guard<std::mutex> lock(mutex);
        derivedTimeouts.emplace(name, tune::derivedTimeout(wall));
      }
      double time = 0, qos = 0;
      if (!nb::isinstance<nb::tuple>(r) && !nb::isinstance<nb::list>(r)) {
        m.message = name + " returned " + nb::cast<std::string>(nb::repr(r)) +
                    ", not (time_ms, accuracy[, scores])";
      } else if (nb::len(r) != 2 && nb::len(r) != 3) {
        m.message = name + " returned " + std::to_string(nb::len(r)) +
                    " values, not (time_ms, accuracy[, scores])";
      } else {
        time = nb::cast<double>(r[0]);
        qos = nb::cast<double>(r[1]);
        std::string scoresError;
        if (nb::len(r) == 3)
          scoresError = readScores(r[2], m.detail);
        if (!(std::isfinite(time) && time > 0))
          m.message = name + " returned time_ms " + std::to_string(time) +
                      " (must be a positive number of milliseconds)";
        else if (!(qos >= 0 && qos <= 1))
          m.message = name + " returned accuracy " + std::to_string(qos) +
                      " (must be within [0, 1])";
        else if (!scoresError.empty())
          m.message = name + ": " + scoresError;
        else {
          m.status = tune::EvalStatus::Ok;
          m.time = time / 1000;
          m.qos = qos;
          m.samples = {m.time};
        }
        if (!m.ok())
          m.detail.clear();
      }
    } catch (nb::python_error &e) {
      if (e.matches(timeoutType.ptr())) {
        m.status = tune::EvalStatus::Timeout;
        char buf[64];
        std::snprintf(buf, sizeof buf, "no result within %g s", timeout);
        m.message = name + ": " + buf;
        return m;
      }
      if (e.matches(PyExc_KeyboardInterrupt) || e.matches(abandonedType.ptr())) {
        stopRequested = true;
        m.message = "interrupted";
        std::lock_guard<std::mutex> lock(mutex);
        interrupted.insert(tune::formatConfig(c));
        return m;
      }
      m.message = name + " raised " + shortMessage(e);
      if (!evalWarned) {
        evalWarned = true;
        writeStderr(std::string("approx_runtime.tune: warning: ") + e.what() +
                    "\n(the configuration counts as failed; later failures "
                    "are not shown)\n");
      }
    } catch (std::bad_cast &) {
      m.message = name + " must return (time_ms, accuracy) as numbers";
    }
    if (!m.ok() && !evalWarned) {
      evalWarned = true;
      writeStderr("approx_runtime.tune: warning: " + m.message +
                  " (the configuration counts as failed; later failures "
                  "are not shown)\n");
    }
    return m;
  }

  /// Whether a new evaluation is stored; calls result_callback.
  bool recorded(const tune::Evaluation &e) {
    // A failure once Ctrl-C was seen is most likely its doing (the signal
    // reaches the evaluator's child processes too): not a measurement.
    if (stopRequested && !e.result.ok())
      return false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (interrupted.count(tune::formatConfig(e.config)))
        return false; // not measured: a resumed run measures it
    }
    if (callback.is_none() || !e.result.ok())
      return true;
    nb::gil_scoped_acquire gil;
    try {
      callback(toDict(e.config), e.result.time * 1000, e.result.qos);
    } catch (nb::python_error &err) {
      stopRequested = true;
      std::lock_guard<std::mutex> lock(mutex);
      if (callbackError.empty())
        callbackError = shortMessage(err);
    }
    return true;
  }

  /// A line per second at most (and the last one); on a terminal the
  /// line is rewritten in place.
  void progressed(const tune::Progress &p) {
    if (!args.progress)
      return;
    auto now = std::chrono::steady_clock::now();
    bool last = p.evaluations >= p.maxEvals ||
                (p.timeBudget > 0 && p.elapsed >= p.timeBudget);
    if (printed && !last && lastPrint != std::chrono::steady_clock::time_point{} &&
        now - lastPrint < std::chrono::seconds(1)) {
      unprinted = p;
      return;
    }
    unprinted.reset();
    lastPrint = now;
    nb::gil_scoped_acquire gil;
    if (!printed)
      tty = nb::cast<bool>(
          nb::module_::import_("sys").attr("stderr").attr("isatty")());
    printed = true;
    std::string line = "approx_runtime.tune: " + tune::progressLine(p);
    writeStderr(tty ? "\r\033[K" + line : line + "\n");
  }

  /// The frontier's re-measurement (held-out, certification): a line per
  /// measurement, after the search's last line.
  void remeasured(tune::InputSet set, size_t done, size_t most) {
    if (!args.progress)
      return;
    if (unprinted) {
      tune::Progress p = *unprinted;
      unprinted.reset();
      lastPrint = {};
      progressed(p);
    }
    nb::gil_scoped_acquire gil;
    if (!printed)
      tty = nb::cast<bool>(
          nb::module_::import_("sys").attr("stderr").attr("isatty")());
    if (printed && tty && !remeasuring)
      writeStderr("\n"); // ends the search's line
    printed = remeasuring = true;
    writeStderr("approx_runtime.tune: " + tune::remeasureLine(set, done, most) +
                "\n");
  }

  void endProgress() {
    if (unprinted) {
      tune::Progress p = *unprinted;
      unprinted.reset();
      lastPrint = {};
      progressed(p);
    }
    if (printed && tty && !remeasuring) {
      nb::gil_scoped_acquire gil;
      writeStderr("\n");
    }
  }
};

} // namespace

void bindTune(nb::module_ &m) {
  m.def(
      "space_fingerprint",
      [](const tune::Space &space, bool dynamic) { return tune::spaceFingerprint(space, dynamic); },
      nb::arg("space"), nb::arg("dynamic") = true,
      "The fingerprint results stores key runs by (the space's parameters and their ranges)");
  nb::class_<TuneJob>(m, "TuneJob")
      .def("wait", &TuneJob::wait, nb::arg("timeout") = -1.0)
      .def("stop", &TuneJob::stop)
      .def("result", &TuneJob::result);

  m.def(
      "start_tune",
      [](const std::string &mlir, nb::callable evaluate, double threshold,
         double timeBudget, const std::string &database, unsigned parallelism,
         nb::object callback, size_t maxEvals, uint64_t seed,
         const std::string &mode, bool resume, bool progress,
         const std::string &filename, const std::string &command,
         std::vector<tune::Config> startFrom, nb::object holdout,
         nb::object calibration, double certify, const std::string &bound,
         double timeout, nb::callable caller, unsigned repetitions,
         double timeTolerance, size_t certifyCandidates) {
        if (mode != "dynamic" && mode != "static")
          throw nb::value_error(("mode must be 'dynamic' or 'static', not '" +
                                 mode + "'")
                                    .c_str());
        TuneArgs args;
        args.mlir = mlir;
        args.filename = filename;
        args.database = database;
        args.command = command;
        args.accuracyThreshold = threshold;
        args.timeBudget = timeBudget;
        args.parallelism = parallelism;
        args.maxEvals = maxEvals;
        args.seed = seed;
        args.dynamic = mode == "dynamic";
        args.resume = resume;
        args.progress = progress;
        args.startFrom = std::move(startFrom);
        args.certifyDelta = certify;
        if (!(timeout >= 0 && timeout < 1e9))
          throw nb::value_error("timeout must be a positive number of seconds "
                                "or None");
        args.timeout = timeout;
        if (repetitions == 0)
          throw nb::value_error("repetitions must be at least 1");
        if (!(timeTolerance >= 0 && timeTolerance < 1e9))
          throw nb::value_error("time_tolerance must be a fraction >= 0 (0: always "
                                "`repetitions` calls)");
        args.repetitions = repetitions;
        args.timeTolerance = timeTolerance;
        args.caller = std::move(caller);
        args.bound = boundArg(bound, "certify_bound");
        args.certifyCandidates = certifyCandidates;
        for (nb::handle fn : {holdout, calibration})
          if (!fn.is_none() && !PyCallable_Check(fn.ptr()))
            throw nb::type_error("holdout_fn and calibration_fn must be "
                                 "callable or None");
        return new TuneJob(args, std::move(evaluate), std::move(holdout),
                           std::move(calibration), std::move(callback));
      },
      nb::arg("mlir"), nb::arg("evaluate"), nb::arg("accuracy_threshold"),
      nb::arg("time_budget"), nb::arg("database"), nb::arg("parallelism"),
      nb::arg("callback").none(), nb::arg("max_evals"), nb::arg("seed"),
      nb::arg("mode"), nb::arg("resume"), nb::arg("progress"),
      nb::arg("filename"), nb::arg("command"), nb::arg("start_from"),
      nb::arg("holdout").none(), nb::arg("calibration").none(),
      nb::arg("certify"), nb::arg("certify_bound"), nb::arg("timeout"),
      nb::arg("caller"), nb::arg("repetitions"), nb::arg("time_tolerance"),
      nb::arg("certify_candidates"), nb::rv_policy::take_ownership);
}

} // namespace approx::python
