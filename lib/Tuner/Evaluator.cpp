//===- Evaluator.cpp - measuring one configuration ------------------------===//
#include "approx/Tuner/Evaluator.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <mutex>
#include <poll.h>
#include <set>
#include <sstream>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace approx::tune {

const char *statusName(EvalStatus status) {
  switch (status) {
  case EvalStatus::Ok:
    return "ok";
  case EvalStatus::Failed:
    return "failed";
  case EvalStatus::Crashed:
    return "crashed";
  case EvalStatus::Timeout:
    return "timeout";
  case EvalStatus::Unparsable:
    return "unparsable";
  case EvalStatus::Screened:
    return "screened";
  case EvalStatus::Unmeasured:
    return "unmeasured";
  }
  return "";
}

bool parseStatus(const std::string &name, EvalStatus &status) {
  for (EvalStatus s : {EvalStatus::Ok, EvalStatus::Failed, EvalStatus::Crashed,
                       EvalStatus::Timeout, EvalStatus::Unparsable,
                       EvalStatus::Screened, EvalStatus::Unmeasured})
    if (name == statusName(s)) {
      status = s;
      return true;
    }
  return false;
}

const char *inputSetName(InputSet set) {
  switch (set) {
  case InputSet::Tuning:
    return "tuning";
  case InputSet::Evaluation:
    return "evaluation";
  case InputSet::Calibration:
    return "calibration";
  case InputSet::Screen:
    return "screen";
  }
  return "";
}

bool parseQosDetail(const std::string &text, const std::string &path,
                    std::vector<InputScore> &detail, std::string &error) {
  detail.clear();
  std::set<std::string> seen;
  size_t lineNo = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    std::string where = path + ":" + std::to_string(lineNo) + ": ";
    std::istringstream is(line);
    std::string id, value, extra;
    if (!(is >> id) || id[0] == '#')
      continue;
    if (!(is >> value) || (is >> extra)) {
      error = where + "expected '<input id> <score>', got '" +
              line.substr(0, 80) + "'";
      return false;
    }
    char *rest = nullptr;
    errno = 0;
    double v = std::strtod(value.c_str(), &rest);
    if (*rest || errno || !std::isfinite(v) || v < 0 || v > 1) {
      error = where + "score '" + value + "' of input '" + id +
              "' is not a number in [0, 1]";
      return false;
    }
    if (!seen.insert(id).second) {
      error = where + "input '" + id + "' appears twice";
      return false;
    }
    detail.push_back({id, v});
  }
  if (detail.empty()) {
    error = path + ": no per-input score ('<input id> <score>' lines)";
    return false;
  }
  return true;
}

std::string formatQosDetail(const std::vector<InputScore> &detail) {
  std::string s;
  char buf[32];
  for (const InputScore &d : detail) {
    std::snprintf(buf, sizeof buf, " %.17g\n", d.score);
    s += d.id + buf;
  }
  return s;
}

EvaluateFn perInputSet(EvaluateFn tuning, EvaluateFn evaluation,
                       EvaluateFn calibration) {
  return [tuning = std::move(tuning), evaluation = std::move(evaluation),
          calibration = std::move(calibration)](const Config &c, InputSet set) {
    const EvaluateFn &fn = set == InputSet::Evaluation    ? evaluation
                           : set == InputSet::Calibration ? calibration
                                                          : tuning;
    return fn(c, set);
  };
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double relativeSpread(const std::vector<double> &samples) {
  if (samples.empty())
    return -1;
  auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  double mid = median(samples);
  return mid > 0 ? (*hi - *lo) / mid : -1;
}

Measurement repeatMeasurement(const std::function<Measurement()> &once,
                              unsigned repetitions, double timeTolerance) {
  Measurement result;
  std::vector<double> qos;
  for (unsigned r = 0; r < std::max(1u, repetitions); ++r) {
    Measurement m = once();
    if (!m.ok())
      return m;
    if (r == 0)
      result.detail = std::move(m.detail);
    result.samples.push_back(m.time);
    qos.push_back(m.qos);
    if (timeTolerance > 0 && r >= 1) {
      auto [qlo, qhi] = std::minmax_element(qos.begin(), qos.end());
      double spread = relativeSpread(result.samples);
      if (*qhi - *qlo <= 1e-12 && spread >= 0 && spread <= timeTolerance)
        break;
    }
  }
  result.time = median(result.samples);
  result.qos = median(qos);
  return result;
}

bool parseResultLine(const std::string &output, double &time, double &qos,
                     std::string &error) {
  static const char kTag[] = "approx-result:";
  size_t at = output.rfind(kTag);
  if (at == std::string::npos) {
    error = "no 'approx-result: time=<seconds> qos=<0..1>' line in the output";
    return false;
  }
  std::string line = output.substr(at + sizeof(kTag) - 1);
  line = line.substr(0, line.find('\n'));
  bool haveTime = false, haveQos = false;
  size_t pos = 0;
  while (pos < line.size()) {
    size_t start = line.find_first_not_of(" \t\r", pos);
    if (start == std::string::npos)
      break;
    size_t end = line.find_first_of(" \t\r", start);
    std::string field = line.substr(start, end == std::string::npos
                                               ? std::string::npos
                                               : end - start);
    pos = end == std::string::npos ? line.size() : end;
    size_t eq = field.find('=');
    std::string key = field.substr(0, eq);
    if (eq == std::string::npos || (key != "time" && key != "qos"))
      continue; // other fields are allowed and ignored
    const char *text = field.c_str() + eq + 1;
    char *rest = nullptr;
    errno = 0;
    double v = std::strtod(text, &rest);
    if (rest == text || *rest || errno || !std::isfinite(v)) {
      error = "bad value in '" + field + "'";
      return false;
    }
    (key == "time" ? time : qos) = v;
    (key == "time" ? haveTime : haveQos) = true;
  }
  if (!haveTime || !haveQos) {
    error = std::string("the approx-result line lacks ") +
            (haveTime ? "qos=" : "time=");
    return false;
  }
  // Times are seconds: a nanosecond to 30 years. Outside, a ratio of two
  // times overflows (1e300 against 1e-300 wrote speedup inf into
  // summary.json) or the clock is not one.
  constexpr double kMinTime = 1e-9, kMaxTime = 1e9;
  if (!(time >= kMinTime && time <= kMaxTime)) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", time);
    error = "time=" + std::string(shown) +
            (time <= 0 ? " is not positive (report seconds with a finer clock)"
                       : " is outside [1e-09, 1e+09] seconds");
    return false;
  }
  if (qos < 0 || qos > 1) {
    error = "qos " + std::to_string(qos) + " is outside [0, 1]";
    return false;
  }
  return true;
}

namespace {

/// Paths removeEvaluationFiles removes from an interrupt handler: the
/// scratch directories and the files of running evaluations. A slot goes
/// free (0) -> being written (1) -> set (2); the handler reads set slots
/// only (plain atomics and fixed buffers: no allocation, no locks).
struct RemovablePath {
  std::atomic<int> state{0};
  bool directory = false;
  char path[1024];
};
constexpr size_t kMaxRemovable = 256;
RemovablePath removable[kMaxRemovable];

/// Registers `path` (best effort: a path too long or no free slot is not
/// registered); the slot's index, or -1.
int registerRemovable(const std::string &path, bool directory) {
  if (path.size() >= sizeof removable[0].path)
    return -1;
  for (size_t i = 0; i < kMaxRemovable; ++i) {
    int free = 0;
    if (!removable[i].state.compare_exchange_strong(free, 1))
      continue;
    std::memcpy(removable[i].path, path.c_str(), path.size() + 1);
    removable[i].directory = directory;
    removable[i].state.store(2);
    return int(i);
  }
  return -1;
}

void unregisterRemovable(int slot) {
  if (slot >= 0)
    removable[slot].state.store(0);
}

/// A private directory for configuration files, removed with the evaluator
/// (or by removeEvaluationFiles when the tool is interrupted).
struct ScratchDir {
  std::string path;
  std::atomic<unsigned long> counter{0};
  int slot = -1;
  ScratchDir() {
    const char *tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") +
                        "/approx-tune-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back(0);
    if (mkdtemp(buf.data())) {
      path = buf.data();
      slot = registerRemovable(path, true);
    }
  }
  ~ScratchDir() {
    unregisterRemovable(slot);
    if (!path.empty())
      rmdir(path.c_str());
  }
};

/// Output of one run of the command.
struct RunOutput {
  int status = 0; // waitpid status
  bool timedOut = false;
  std::string out, err;
  std::string spawnError;
};

/// The process groups of running evaluations, for killRunningEvaluations
/// (a signal handler: plain atomics, no locks).
constexpr size_t kMaxLiveGroups = 1024;
std::atomic<pid_t> liveGroups[kMaxLiveGroups];
/// Set by killRunningEvaluations: a killed evaluation is not a measurement.
std::atomic<bool> stopping{false};

void trackGroup(pid_t pgid) {
  for (std::atomic<pid_t> &slot : liveGroups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid))
      return;
  }
}

/// How long a stopped evaluation's process group has after SIGTERM to exit
/// by itself before SIGKILL ends what is left of it: a command's own
/// cleanup (an evaluation script's trap removing its temporary files, the
/// way benchmarks/*/evaluate.sh do) runs on SIGTERM and never on SIGKILL.
constexpr int kTermGraceMs = 2000, kTermPollMs = 20;

/// Waits until `gone()` or kTermGraceMs have passed, polling every
/// kTermPollMs (no allocation, poll only: usable in a signal handler).
template <typename Gone> void termGrace(Gone gone) {
  for (int waited = 0; waited < kTermGraceMs && !gone(); waited += kTermPollMs)
    poll(nullptr, 0, kTermPollMs);
}

/// Stops the timed-out evaluation `pid` (its group's leader): SIGTERM to
/// the group, the grace for the leader to exit, then SIGKILL to whatever is
/// left of the group.
void stopTimedOut(pid_t pid) {
  kill(-pid, SIGTERM);
  termGrace([pid] {
    siginfo_t info{};
    return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid;
  });
  kill(-pid, SIGKILL);
}

void untrackGroup(pid_t pgid) {
  for (std::atomic<pid_t> &slot : liveGroups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0))
      return;
  }
}

/// Appends `data` to `sink`, keeping only its last `cap` bytes: the result
/// line comes last, so a command printing megabytes before it (one huge
/// line included) must not push it out.
void appendTail(std::string &sink, const char *data, size_t n, size_t cap) {
  sink.append(data, n);
  if (sink.size() > 2 * cap)
    sink.erase(0, sink.size() - cap);
}

RunOutput runCommand(const std::string &command,
                     const std::vector<std::string> &extraEnv,
                     double timeoutSeconds) {
  RunOutput result;
  // Everything the child needs is built before fork (only async-signal-safe
  // calls between fork and exec).
  std::vector<std::string> envStrings;
  for (char **e = environ; *e; ++e) {
    std::string entry = *e;
    bool replaced = false;
    for (const std::string &x : extraEnv)
      replaced |= entry.compare(0, x.find('=') + 1, x, 0, x.find('=') + 1) == 0;
    if (!replaced)
      envStrings.push_back(entry);
  }
  envStrings.insert(envStrings.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char *> envp;
  for (std::string &s : envStrings)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  // A plain `path/to/program arg...` is executed directly; anything else
  // goes through /bin/sh -c.
  std::vector<std::string> words;
  bool plain = command.find_first_not_of(
                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                   "0123456789_./+,:@- ") == std::string::npos;
  for (size_t pos = 0; plain && pos < command.size();) {
    size_t start = command.find_first_not_of(' ', pos);
    if (start == std::string::npos)
      break;
    size_t end = command.find(' ', start);
    words.push_back(command.substr(start, end == std::string::npos
                                              ? std::string::npos
                                              : end - start));
    pos = end == std::string::npos ? command.size() : end;
  }
  if (words.empty() || words[0].find('/') == std::string::npos)
    words = {"/bin/sh", "-c", command};
  std::vector<char *> argv;
  for (std::string &w : words)
    argv.push_back(w.data());
  argv.push_back(nullptr);

  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) || pipe2(errPipe, O_CLOEXEC)) {
    result.spawnError = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  pid_t pid = fork();
  if (pid < 0) {
    result.spawnError = std::string("fork: ") + std::strerror(errno);
    for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
      close(fd);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0); // its own process group, so a timeout kills all of it
    dup2(outPipe[1], 1);
    dup2(errPipe[1], 2);
    execve(argv[0], argv.data(), envp.data());
    static const char kCannot[] = "cannot execute ";
    ssize_t ignored = write(2, kCannot, sizeof kCannot - 1);
    ignored = write(2, argv[0], std::strlen(argv[0]));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(127);
  }
  trackGroup(pid);
  close(outPipe[1]);
  close(errPipe[1]);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(timeoutSeconds);
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string *sinks[2] = {&result.out, &result.err};
  int open = 2;
  char buf[4096];
  // The evaluation ends when the command exits, even if a process it left
  // behind still holds its output (approx-tune once waited for such a
  // child, or recorded a timeout after the result was printed): the pipes
  // are read while the command runs, checked every kExitCheckMs, then
  // drained of what it wrote, and what is left of its group is killed.
  constexpr int kExitCheckMs = 50;
  bool exited = false;
  while (open > 0) {
    int waitMs = exited ? 0 : kExitCheckMs;
    if (timeoutSeconds > 0 && !exited) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0) {
        result.timedOut = true;
        stopTimedOut(pid);
        break;
      }
      waitMs = int(std::min<long long>(left, kExitCheckMs));
    }
    int n = poll(fds, 2, waitMs);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    if (n == 0) {
      if (exited) { // drained: only leftovers hold the pipes
        kill(-pid, SIGKILL);
        break;
      }
      siginfo_t info{};
      exited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
               info.si_pid == pid;
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        appendTail(*sinks[i], buf, size_t(got), size_t(1) << 22);
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (pollfd &p : fds)
    if (p.fd >= 0)
      close(p.fd);
  // Untracked once it has exited but before it is reaped, so that the id
  // cannot be reused by another process while it is still tracked.
  siginfo_t info;
  while (waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 &&
         errno == EINTR) {
  }
  untrackGroup(pid);
  while (waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  // The process is being stopped: a command killed for that must not be
  // recorded as a crash of its configuration; the caller exits shortly.
  while (stopping.load())
    pause();
  // Children of the command that outlived it are its own business, but a
  // timed-out group is gone entirely.
  return result;
}

/// The last line of `text` that is not blank, for failure messages.
std::string lastLine(const std::string &text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos)
    return "";
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, std::min<size_t>(end + 1 - start, 300));
}

} // namespace

void killRunningEvaluations() {
  stopping.store(true);
  // SIGTERM first, so that the commands clean up after themselves; the
  // groups still there after kTermGraceMs (or whose leader is not reaped,
  // its thread being the one in this handler) are killed. kill, poll and
  // atomics are async-signal-safe.
  for (std::atomic<pid_t> &slot : liveGroups)
    if (pid_t pgid = slot.load())
      kill(-pgid, SIGTERM);
  termGrace([] {
    for (std::atomic<pid_t> &slot : liveGroups)
      if (pid_t pgid = slot.load(); pgid && kill(-pgid, 0) == 0)
        return false;
    return true;
  });
  for (std::atomic<pid_t> &slot : liveGroups)
    if (pid_t pgid = slot.load())
      kill(-pgid, SIGKILL);
}

void removeEvaluationFiles() {
  for (bool directories : {false, true})
    for (RemovablePath &r : removable)
      if (r.state.load() == 2 && r.directory == directories)
        directories ? rmdir(r.path) : unlink(r.path);
}

EvaluateFn commandEvaluator(const CommandOptions &options) {
  auto scratch = std::make_shared<ScratchDir>();
  return [options, scratch](const Config &config, InputSet set) {
    if (scratch->path.empty()) {
      Measurement m;
      m.status = EvalStatus::Failed;
      m.message = "cannot create a directory for configuration files";
      return m;
    }
    std::string file = scratch->path + "/config-" +
                       std::to_string(scratch->counter++) + ".json";
    std::string json = toJson(config);
    FILE *f = std::fopen(file.c_str(), "w");
    bool written = f && std::fwrite(json.data(), 1, json.size(), f) ==
                            json.size();
    if (f && std::fclose(f) != 0)
      written = false;
    if (!written) {
      Measurement m;
      m.status = EvalStatus::Failed;
      m.message = "cannot write the configuration file '" + file + "'";
      return m;
    }
    std::string detailFile = scratch->path + "/detail-" +
                             std::to_string(scratch->counter++) + ".txt";
    int slots[] = {registerRemovable(file, false),
                   registerRemovable(detailFile, false)};
    std::vector<std::string> env = {
        "APPROX_CONFIG=" + file,
        std::string("APPROX_INPUT_SET=") + inputSetName(set),
        "APPROX_QOS_DETAIL=" + detailFile};
    Measurement m = repeatMeasurement(
        [&] {
          Measurement one;
          std::remove(detailFile.c_str());
          RunOutput run = runCommand(options.command, env,
                                     options.timeoutSeconds);
          std::string why = lastLine(run.err);
          if (!run.spawnError.empty()) {
            one.status = EvalStatus::Failed;
            one.message = run.spawnError;
          } else if (run.timedOut) {
            one.status = EvalStatus::Timeout;
            one.message = "no result within " +
                          std::to_string(options.timeoutSeconds) + " s";
          } else if (WIFSIGNALED(run.status)) {
            one.status = EvalStatus::Crashed;
            one.message = std::string("killed by signal ") +
                          strsignal(WTERMSIG(run.status)) +
                          (why.empty() ? "" : ": " + why);
          } else if (WEXITSTATUS(run.status) != 0) {
            one.status = EvalStatus::Failed;
            one.message = "exit status " +
                          std::to_string(WEXITSTATUS(run.status)) +
                          (why.empty() ? "" : ": " + why);
          } else if (!parseResultLine(run.out, one.time, one.qos,
                                      one.message)) {
            one.status = EvalStatus::Unparsable;
          } else if (std::ifstream in{detailFile}) {
            std::stringstream text;
            text << in.rdbuf();
            if (!parseQosDetail(text.str(), "APPROX_QOS_DETAIL",
                                one.detail, one.message))
              one.status = EvalStatus::Unparsable;
          }
          return one;
        },
        options.repetitions, options.timeTolerance);
    for (int slot : slots)
      unregisterRemovable(slot);
    std::remove(file.c_str());
    std::remove(detailFile.c_str());
    return m;
  };
}

EvaluateFn calibratedCommandEvaluator(
    CommandOptions options, double explicitTimeout,
    std::function<EvaluateFn(const CommandOptions &)> make) {
  // The exact run sets the default timeout.
  options.timeoutSeconds = explicitTimeout > 0 ? explicitTimeout : kFirstRunTimeout;
  if (explicitTimeout > 0)
    return make(options);
  struct State {
    std::mutex mutex;
    EvaluateFn untimed, timed;
  };
  auto state = std::make_shared<State>();
  state->untimed = make(options);
  return [state, options, make](const Config &c, InputSet set) {
    {
      std::lock_guard<std::mutex> lock(state->mutex);
      if (!state->timed) {
        auto start = std::chrono::steady_clock::now();
        Measurement m = state->untimed(c, set);
        double wall = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count() /
                      double(std::max<size_t>(1, m.samples.size()));
        CommandOptions timed = options;
        timed.timeoutSeconds = derivedTimeout(wall);
        state->timed = make(timed);
        return m;
      }
    }
    return state->timed(c, set);
  };
}

} // namespace approx::tune
