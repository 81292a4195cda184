//===- RuntimeBench.cpp - runtime adaptation measured on pagerank ---------===//
//
// Runtime adaptation (docs/runtime.md, issue 40) measured on pagerank's
// kernel (benchmarks/pagerank), whose annotated MLIR (approx-cc
// --emit=annotated) the JIT compiles in process. Phases, driven by
// benchmarks/runtime/load.py (load) and benchmarks/runtime/jit.py (the
// others):
//
//   points: the controller's view of the frontier (index, relative time,
//     QoS, configuration) as JSON.
//   calibrate: the table build's time per unit at the most accurate point
//     (the scripts set the goal from it: common.goal_seconds).
//
//   control: units of work (one pagerank run each, on evaluation instance 1)
//     under the controller over a tuned frontier, with a Respecializer: the
//     table build serves every point until one has settled, then its baked
//     build is compiled in the background and swapped in. Prints, as JSON,
//     every unit (point, build, seconds), the settled point and its
//     configuration, and the compile time.
//   load: units of work on the runtime-table build under the controller, or
//     on one static point (--static-point), while --load-procs competing
//     CPU-bound processes run during units [--load-from, --load-to). Prints
//     every unit, the deadline-miss rate, the mean QoS of the points used
//     and the settling time after each change of load.
//   compare: the settled point's configuration in three builds, timed
//     alternately in the same process: the runtime-table build (JIT), the
//     re-specialised baked build (JIT, the Respecializer's compile) and the
//     AOT baked build (approx-cc --approx-config, a shared library). Prints
//     medians, ratios, the compile time and the break-even unit count.
//
//===----------------------------------------------------------------------===//
#include "../BenchUtil.h"
#include "approx/Execution/Respecialize.h"
#include "approx_controller.h"
#include "approx_runtime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string>
#include <vector>

using approx::bench::median;
using approx::bench::nowSeconds;

extern "C" {
typedef struct {
  int n, *off, *src, *out_deg;
} pr_graph;
typedef struct {
  double *rank, *next, *contrib;
} pr_state;
pr_graph rs_generate(int size, int instance);
pr_state rs_state(int n);
void rs_state_free(pr_state *s);
int rs_size_class(int n);
}

namespace {

namespace cl = llvm::cl;
cl::opt<std::string> phase(cl::Positional, cl::desc("points|calibrate|control|load|compare"),
                           cl::Required);
cl::opt<std::string> mlirPath("mlir", cl::desc("pagerank's annotated MLIR (every phase but "
                                              "points)"));
cl::opt<std::string> frontierPath("frontier", cl::desc("the tuned pareto.csv"), cl::Required);
cl::opt<int> size("size", cl::desc("input size class: 0 tiny, 1 small, 2 paper"), cl::init(1));
cl::opt<int> units("units", cl::desc("control: units of work"), cl::init(40));
cl::opt<unsigned> settle("settle", cl::desc("control: units on a point before its baked "
                                            "build is compiled"),
                         cl::init(5));
cl::opt<int> point("point", cl::desc("compare: the frontier point"), cl::init(-1));
cl::opt<double> targetSeconds("target",
                              cl::desc("control, load: the goal per unit, in seconds"),
                              cl::init(0));
cl::opt<int> staticPoint("static-point",
                         cl::desc("load: run every unit on this point (no controller)"),
                         cl::init(-1));
cl::opt<int> loadFrom("load-from", cl::desc("load: the first unit under load"), cl::init(30));
cl::opt<int> loadTo("load-to", cl::desc("load: the first unit after the load"), cl::init(60));
cl::opt<int> loadProcs("load-procs", cl::desc("load: competing CPU-bound processes"),
                       cl::init(3));
cl::opt<std::string> aotPath("aot", cl::desc("compare: the AOT baked build (a shared library)"));
cl::opt<int> reps("reps", cl::desc("compare: timed runs per build"), cl::init(11));

using PagerankFn = void(int, const int *, const int *, const int *, double *, double *,
                        double *, int);

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "approx-bench-runtime: error: " << message << "\n";
  std::exit(1);
}

std::string readFile(const std::string &path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    fail(path + ": " + buf.getError().message());
  return (*buf)->getBuffer().str();
}

approx_ctl *openController(double target) {
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = target;
  goal.check_params = 0; // the JIT's table build registers them afterwards
  approx_ctl *c = approx_ctl_open(frontierPath.c_str(), &goal);
  if (!c)
    fail(approx_rt_last_error());
  return c;
}

/// One unit: a fresh state, the kernel, its seconds.
double runOnce(PagerankFn *fn, const pr_graph &g, double *checksum = nullptr) {
  pr_state s = rs_state(g.n);
  double t0 = nowSeconds();
  fn(g.n, g.off, g.src, g.out_deg, s.rank, s.next, s.contrib, rs_size_class(g.n));
  double t = nowSeconds() - t0;
  if (checksum) {
    double sum = 0;
    for (int v = 0; v < g.n; ++v)
      sum += s.rank[v] * (1 + v % 7);
    *checksum = sum;
  }
  rs_state_free(&s);
  return t;
}

llvm::json::Object configOf(approx_ctl *c, size_t p) {
  llvm::json::Object config;
  for (size_t i = 0; i < approx_ctl_num_params(c); ++i)
    config[approx_ctl_param_name(c, i)] = approx_ctl_point_value(c, p, i);
  return config;
}

int points() {
  approx_ctl *c = openController(1);
  llvm::json::Array out;
  for (size_t p = 0; p < approx_ctl_num_points(c); ++p)
    out.push_back(llvm::json::Object{{"point", static_cast<int64_t>(p)},
                                     {"relative_time", approx_ctl_point_relative_time(c, p)},
                                     {"qos", approx_ctl_point_qos(c, p)},
                                     {"config", configOf(c, p)}});
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  approx_ctl_close(c);
  return 0;
}

/// The program's runtime-table build, JIT-compiled.
std::unique_ptr<approx::JitModule> tableBuild(const std::string &source) {
  approx::CompileOptions options;
  options.mode = "runtime";
  auto table = approx::JitModule::create(source, mlirPath, options);
  if (!table)
    fail(llvm::toString(table.takeError()));
  return std::move(*table);
}

/// --target, checked.
double target() {
  if (!(targetSeconds > 0))
    fail("give the goal per unit: --target SECONDS (> 0)");
  return targetSeconds;
}

/// The table build's time per unit at the most accurate point: the median
/// of three runs after one that warms the caches and the JIT's code.
int calibrate(const std::string &source, const pr_graph &g) {
  std::unique_ptr<approx::JitModule> table = tableBuild(source);
  auto fn = table->function<PagerankFn>("pagerank");
  if (!fn)
    fail(llvm::toString(fn.takeError()));
  approx_ctl *c = openController(1);
  approx_ctl_begin(c); // sets the most accurate point
  runOnce(*fn, g);
  std::vector<double> t;
  for (int i = 0; i < 3; ++i)
    t.push_back(runOnce(*fn, g));
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                             {"exact_unit_seconds", median(t)}}))
               << "\n";
  approx_ctl_close(c);
  return 0;
}

/// Competing CPU-bound processes, killed when it goes.
class Competitors {
public:
  explicit Competitors(int n) {
    for (int i = 0; i < n; ++i) {
      pid_t pid = fork();
      if (pid == 0) {
        volatile unsigned long spin = 0;
        for (;;)
          spin = spin + 1;
      }
      if (pid < 0)
        fail("fork failed");
      pids.push_back(pid);
    }
  }
  ~Competitors() {
    for (pid_t pid : pids)
      kill(pid, SIGKILL);
    for (pid_t pid : pids)
      waitpid(pid, nullptr, 0);
  }

private:
  std::vector<pid_t> pids;
};

int load(const std::string &source, const pr_graph &g) {
  std::unique_ptr<approx::JitModule> table = tableBuild(source);
  auto fn = table->function<PagerankFn>("pagerank");
  if (!fn)
    fail(llvm::toString(fn.takeError()));
  auto run = [&] { return runOnce(*fn, g); };
  double goal = target();
  approx_ctl *c = openController(goal);
  size_t n = approx_ctl_num_points(c);
  if (staticPoint >= static_cast<int>(n))
    fail("--static-point: the frontier has " + llvm::Twine(n) + " points");
  auto set = [&](size_t p) {
    for (size_t i = 0; i < approx_ctl_num_params(c); ++i)
      approx_rt_set(approx_ctl_param_name(c, i), approx_ctl_point_value(c, p, i));
  };
  llvm::json::Array rows;
  std::vector<int> points;
  int misses = 0;
  double qos = 0;
  std::unique_ptr<Competitors> competitors;
  for (int u = 0; u < units; ++u) {
    if (u == loadFrom)
      competitors = std::make_unique<Competitors>(loadProcs);
    if (u == loadTo)
      competitors.reset();
    int p;
    double t;
    if (staticPoint >= 0) {
      p = staticPoint;
      set(static_cast<size_t>(p));
      t = run();
    } else {
      p = approx_ctl_begin(c);
      t = run();
      approx_ctl_end_with(c, t);
    }
    int missed = t > goal;
    misses += missed;
    qos += approx_ctl_point_qos(c, static_cast<size_t>(p));
    points.push_back(p);
    bool loaded = u >= loadFrom && u < loadTo;
    rows.push_back(llvm::json::Object{{"unit", u},
                                      {"point", p},
                                      {"seconds", t},
                                      {"missed", missed},
                                      {"loaded", loaded}});
    llvm::errs() << "unit " << u << (loaded ? " loaded" : " idle  ") << ": point " << p << " "
                 << llvm::format("%.3f s", t) << (missed ? " missed" : "") << "\n";
  }
  competitors.reset();
  llvm::json::Object out{{"target_seconds", goal},
                         {"static_point", staticPoint.getValue()},
                         {"load_from", loadFrom.getValue()},
                         {"load_to", loadTo.getValue()},
                         {"load_procs", loadProcs.getValue()},
                         {"deadline_miss_rate", static_cast<double>(misses) / units},
                         {"qos", qos / units},
                         {"units", std::move(rows)}};
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  approx_ctl_close(c);
  return 0;
}

int control(const std::string &source, const pr_graph &g) {
  double goal = target();
  approx_ctl *c = openController(goal);
  approx::RespecializeOptions options;
  options.settleUnits = settle;
  auto r = approx::Respecializer::create(source, mlirPath, c, options);
  if (!r)
    fail(llvm::toString(r.takeError()));
  auto run = [&] {
    auto fn = (*r)->function<PagerankFn>("pagerank");
    if (!fn)
      fail(llvm::toString(fn.takeError()));
    return runOnce(*fn, g);
  };
  llvm::json::Array rows;
  int firstBaked = -1;
  for (int u = 0; u < units; ++u) {
    int p = approx_ctl_begin(c);
    int build = (*r)->specialisedPoint();
    double t = run();
    int missed = approx_ctl_end_with(c, t);
    (*r)->step();
    if (build >= 0 && firstBaked < 0)
      firstBaked = u;
    rows.push_back(llvm::json::Object{
        {"unit", u}, {"point", p}, {"baked", build >= 0}, {"seconds", t}, {"missed", missed}});
    llvm::errs() << "unit " << u << ": point " << p << (build >= 0 ? " baked " : " table ")
                 << llvm::format("%.3f s", t) << "\n";
  }
  int settled = approx_ctl_point(c);
  const approx::RespecializeStats &st = (*r)->stats();
  llvm::json::Object out{{"target_seconds", goal},
                         {"settle_units", static_cast<int64_t>(settle.getValue())},
                         {"settled_point", settled},
                         {"settled_config", configOf(c, static_cast<size_t>(settled))},
                         {"first_baked_unit", firstBaked},
                         {"compiles", static_cast<int64_t>(st.compiles)},
                         {"compile_seconds", st.compileSeconds},
                         {"misses", approx_ctl_misses(c)},
                         {"error", (*r)->lastError()},
                         {"units", std::move(rows)}};
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  r->reset();
  approx_ctl_close(c);
  return 0;
}

int compare(const std::string &source, const pr_graph &g) {
  if (point < 0 || aotPath.empty())
    fail("compare needs --point and --aot");
  approx_ctl *c = openController(1);
  if (static_cast<size_t>(point) >= approx_ctl_num_points(c))
    fail("--point: the frontier has " + llvm::Twine(approx_ctl_num_points(c)) + " points");
  // The table build (JIT), set to the point.
  std::unique_ptr<approx::JitModule> table = tableBuild(source);
  for (size_t i = 0; i < approx_ctl_num_params(c); ++i)
    approx_rt_set(approx_ctl_param_name(c, i),
                  approx_ctl_point_value(c, static_cast<size_t>(point), i));
  // The re-specialised build: the Respecializer's compile of the point, on
  // a controller held there (a frontier of that one point).
  llvm::SmallString<128> one;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("respecialize-point", "csv", fd, one))
    fail("cannot create a temporary file");
  {
    llvm::raw_fd_ostream os(fd, true);
    os << "time_s,qos";
    for (size_t i = 0; i < approx_ctl_num_params(c); ++i)
      os << "," << approx_ctl_param_name(c, i);
    os << "\n" << 1.0 << "," << approx_ctl_point_qos(c, static_cast<size_t>(point));
    for (size_t i = 0; i < approx_ctl_num_params(c); ++i)
      os << "," << approx_ctl_point_value(c, static_cast<size_t>(point), i);
    os << "\n";
  }
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = 1;
  goal.check_params = 0;
  approx_ctl *held = approx_ctl_open(one.c_str(), &goal);
  if (!held)
    fail(approx_rt_last_error());
  approx::RespecializeOptions options;
  options.settleUnits = 1;
  auto r = approx::Respecializer::create(source, mlirPath, held, options);
  if (!r)
    fail(llvm::toString(r.takeError()));
  (*r)->step();
  (*r)->finishCompile();
  llvm::sys::fs::remove(one);
  if ((*r)->specialisedPoint() != 0)
    fail("the re-specialised compile failed: " + (*r)->lastError());
  // The AOT baked build.
  void *lib = dlopen(aotPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    fail(aotPath + ": " + dlerror());
  auto *aot = reinterpret_cast<PagerankFn *>(dlsym(lib, "pagerank"));
  auto tableFn = table->function<PagerankFn>("pagerank");
  auto jitFn = (*r)->function<PagerankFn>("pagerank");
  if (!aot || !tableFn || !jitFn)
    fail("pagerank not found in a build");
  // The same outputs, then the timings, alternately.
  double sumTable, sumJit, sumAot;
  runOnce(*tableFn, g, &sumTable);
  runOnce(*jitFn, g, &sumJit);
  runOnce(aot, g, &sumAot);
  std::vector<double> tTable, tJit, tAot;
  for (int i = 0; i < reps; ++i) {
    tTable.push_back(runOnce(*tableFn, g));
    tJit.push_back(runOnce(*jitFn, g));
    tAot.push_back(runOnce(aot, g));
    llvm::errs() << "rep " << i << ": table " << llvm::format("%.3f", tTable.back()) << " jit "
                 << llvm::format("%.3f", tJit.back()) << " aot "
                 << llvm::format("%.3f", tAot.back()) << "\n";
  }
  double mTable = median(tTable), mJit = median(tJit), mAot = median(tAot);
  double compile = (*r)->stats().compileSeconds;
  llvm::json::Object out{
      {"point", point.getValue()},
      {"config", configOf(c, static_cast<size_t>(point))},
      {"reps", reps.getValue()},
      {"table_seconds", mTable},
      {"jit_baked_seconds", mJit},
      {"aot_baked_seconds", mAot},
      {"settled_vs_baked", mJit / mAot},
      {"table_vs_baked", mTable / mAot},
      {"compile_seconds", compile},
      {"break_even_units", mTable > mJit ? llvm::json::Value(compile / (mTable - mJit))
                                         : llvm::json::Value(nullptr)},
      {"same_output", sumTable == sumJit && sumJit == sumAot},
      {"checksums", llvm::json::Array{sumTable, sumJit, sumAot}}};
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  r->reset();
  approx_ctl_close(held);
  approx_ctl_close(c);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "JIT re-specialisation measured on pagerank (docs/runtime.md)\n");
  if (phase == "points")
    return points();
  if (mlirPath.empty())
    fail("--mlir: pagerank's annotated MLIR (approx-cc --emit=annotated)");
  std::string source = readFile(mlirPath);
  pr_graph g = rs_generate(size, 1);
  if (phase == "calibrate")
    return calibrate(source, g);
  if (phase == "control")
    return control(source, g);
  if (phase == "load")
    return load(source, g);
  if (phase == "compare")
    return compare(source, g);
  fail("the phase is points, calibrate, control, load or compare, not '" + phase + "'");
}
