//===- Respecialize.h - JIT re-specialisation under the controller -*- C++ -*-===//
//
// Runtime adaptation's third part (docs/runtime.md, issue 40): a program's
// knob functions run from a runtime-table build compiled in process, so the
// controller (approx_controller.h) can move them among its frontier's
// points between units of work; once it has stayed on one point for a
// while, the same source is compiled again in the background with that
// point's configuration baked in (the JIT, JitModule) and swapped in at the
// next safe point, recovering the baked build's speed. When the point
// changes, the table build is used again at once; a point specialised
// before is swapped back in without recompiling.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_EXECUTION_RESPECIALIZE_H
#define APPROX_EXECUTION_RESPECIALIZE_H

#include "approx/Execution/Execution.h"
#include "approx_controller.h"

#include <memory>

namespace approx {

struct RespecializeOptions {
  /// Units on one point (counted by `step`) before its baked build is
  /// compiled.
  unsigned settleUnits = 10;
  /// How the table and baked builds are compiled (mode and configPath are
  /// set by the re-specialiser).
  CompileOptions compile;
};

/// Counters of a re-specialiser.
struct RespecializeStats {
  unsigned compiles = 0;     ///< baked builds compiled
  unsigned swaps = 0;        ///< times a baked build became the active one
  unsigned fallbacks = 0;    ///< times the table build became active again
  double compileSeconds = 0; ///< total wall time of the baked compiles
  double lastCompileSeconds = 0;
};

class Respecializer : public TypedLookup<Respecializer> {
public:
  /// Compiles `source` (annotated MLIR) as a runtime-table build, whose
  /// parameters the controller `ctl` sets (approx_ctl_begin); `ctl` must
  /// outlive the re-specialiser. Errors carry the located diagnostics.
  static llvm::Expected<std::unique_ptr<Respecializer>>
  create(llvm::StringRef source, llvm::StringRef bufferName, approx_ctl *ctl,
         const RespecializeOptions &options = {},
         const SymbolBindings &symbols = {});
  ~Respecializer(); ///< waits for a compile in flight

  /// The safe point: call it between units (after approx_ctl_end, before
  /// the next unit looks its functions up). Counts the units on the
  /// controller's point; starts the point's baked compile once it has
  /// settled; swaps a finished one in while the point is unchanged; falls
  /// back to the table build when the point moved. Addresses looked up
  /// before a step are not valid after it.
  void step();

  /// Blocks until a compile in flight finished (tests, benchmarks) and
  /// swaps it in when the controller is still on its point; counts no unit.
  void finishCompile();

  /// The address of a function of the active build; typed:
  /// `function<Signature>(name)` (TypedLookup).
  llvm::Expected<void *> lookup(llvm::StringRef name) const;

  /// The point whose baked build is active, or -1 (the table build).
  int specialisedPoint() const;
  const RespecializeStats &stats() const;
  /// The first failed baked compile's message (the table build stays in
  /// use for that point), or empty.
  const std::string &lastError() const;

private:
  struct Impl;
  explicit Respecializer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace approx

#endif // APPROX_EXECUTION_RESPECIALIZE_H
