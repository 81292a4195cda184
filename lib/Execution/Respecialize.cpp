//===- Respecialize.cpp - JIT re-specialisation under the controller ------===//
#include "approx/Execution/Respecialize.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <future>
#include <map>

namespace approx {

namespace {

/// A baked build of one point, compiled in the background.
struct Compiled {
  std::unique_ptr<JitModule> module;
  std::string error;
  double seconds = 0;
};

/// The point's configuration as the JSON file the pipeline reads (seed
/// names, the frontier's columns).
llvm::Expected<std::string> writeConfig(const approx_ctl *ctl, size_t point) {
  llvm::json::Object config;
  for (size_t i = 0; i < approx_ctl_num_params(ctl); ++i)
    config[approx_ctl_param_name(ctl, i)] = approx_ctl_point_value(ctl, point, i);
  llvm::SmallString<128> path;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("approx-respecialize", "json", fd, path))
    return llvm::createStringError(ec, "cannot create a configuration file: " + ec.message());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << llvm::json::Value(std::move(config));
  os.close();
  if (os.has_error())
    return llvm::createStringError(os.error(), "cannot write " + path + ": " +
                                                   os.error().message());
  return std::string(path);
}

Compiled compileBaked(std::string source, std::string bufferName, std::string config,
                      CompileOptions options, SymbolBindings symbols) {
  auto started = std::chrono::steady_clock::now();
  Compiled out;
  options.mode = "baked";
  options.configPath = config;
  auto module = JitModule::create(source, bufferName, options, symbols);
  llvm::sys::fs::remove(config);
  if (module)
    out.module = std::move(*module);
  else
    out.error = llvm::toString(module.takeError());
  out.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

} // namespace

struct Respecializer::Impl {
  std::string source, bufferName;
  approx_ctl *ctl;
  RespecializeOptions options;
  SymbolBindings symbols;
  std::unique_ptr<JitModule> table;
  std::map<int, std::unique_ptr<JitModule>> baked; // by point
  std::map<int, bool> failed;
  int point = -1;           // the controller's point at the last step
  unsigned onPoint = 0;     // steps on it
  int active = -1;          // the point whose baked build is active
  int compiling = -1;       // the point being compiled
  std::future<Compiled> inFlight;
  RespecializeStats stats;
  std::string lastError;

  const JitModule &activeModule() const {
    return active >= 0 ? *baked.at(active) : *table;
  }

  void collect(bool wait) {
    if (compiling < 0)
      return;
    if (!wait && inFlight.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return;
    Compiled c = inFlight.get();
    stats.compiles++;
    stats.compileSeconds += c.seconds;
    stats.lastCompileSeconds = c.seconds;
    if (c.module) {
      baked[compiling] = std::move(c.module);
    } else {
      failed[compiling] = true;
      if (lastError.empty())
        lastError = c.error;
    }
    compiling = -1;
  }

  void step() {
    int now = approx_ctl_point(ctl);
    onPoint = now == point ? onPoint + 1 : 1;
    point = now;
    collect(/*wait=*/false);
    if (active >= 0 && active != now) {
      active = -1; // the point moved: the table build serves any point
      stats.fallbacks++;
    }
    if (active < 0 && baked.count(now)) {
      active = now;
      stats.swaps++;
      return;
    }
    if (active < 0 && compiling < 0 && onPoint >= options.settleUnits && !failed.count(now)) {
      llvm::Expected<std::string> config = writeConfig(ctl, static_cast<size_t>(now));
      if (!config) {
        failed[now] = true;
        if (lastError.empty())
          lastError = llvm::toString(config.takeError());
        return;
      }
      compiling = now;
      inFlight = std::async(std::launch::async, compileBaked, source, bufferName, *config,
                            options.compile, symbols);
    }
  }
};

Respecializer::Respecializer(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}

Respecializer::~Respecializer() {
  if (impl->compiling >= 0)
    impl->inFlight.wait();
}

llvm::Expected<std::unique_ptr<Respecializer>>
Respecializer::create(llvm::StringRef source, llvm::StringRef bufferName, approx_ctl *ctl,
                      const RespecializeOptions &options, const SymbolBindings &symbols) {
  if (!ctl)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "Respecializer: no controller");
  CompileOptions tableOptions = options.compile;
  tableOptions.mode = "runtime";
  tableOptions.configPath.clear();
  auto table = JitModule::create(source, bufferName, tableOptions, symbols);
  if (!table)
    return table.takeError();
  auto impl = std::make_unique<Impl>();
  impl->source = source.str();
  impl->bufferName = bufferName.str();
  impl->ctl = ctl;
  impl->options = options;
  impl->symbols = symbols;
  impl->table = std::move(*table);
  return std::unique_ptr<Respecializer>(new Respecializer(std::move(impl)));
}

void Respecializer::step() { impl->step(); }

void Respecializer::finishCompile() {
  impl->collect(/*wait=*/true);
  // Swap in what finished without counting another unit.
  int now = approx_ctl_point(impl->ctl);
  if (impl->active < 0 && now == impl->point && impl->baked.count(now)) {
    impl->active = now;
    impl->stats.swaps++;
  }
}

llvm::Expected<void *> Respecializer::lookup(llvm::StringRef name) const {
  return impl->activeModule().lookup(name);
}

int Respecializer::specialisedPoint() const { return impl->active; }
const RespecializeStats &Respecializer::stats() const { return impl->stats; }
const std::string &Respecializer::lastError() const { return impl->lastError; }

} // namespace approx
