//===- DispatchBench.cpp - cost of the decision tree at the exact config --===//
//
// One JIT-compiled module holds two identical kernels: `work_plain`, not
// annotated, and `work_knob`, a whole-function loop_perforate knob whose
// decision tree selects the exact value (0) in every branch. Both are timed
// alternately in the same process; the report gives medians and the ratio,
// for the baked build and for the runtime-table build (where the thresholds
// and decisions are read from the knob table at every call).
//
//===----------------------------------------------------------------------===//
#include "../BenchUtil.h"
#include "approx/Execution/Execution.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

using approx::bench::median;
using approx::bench::nowSeconds;

namespace {

llvm::cl::opt<int> repetitions("repetitions",
                               llvm::cl::desc("Timed calls per kernel"),
                               llvm::cl::init(301));
llvm::cl::opt<int> iterations("iterations",
                              llvm::cl::desc("Loop trip count of the kernel"),
                              llvm::cl::init(20000));

std::string kernel(const std::string &name) {
  return "func.func @" + name + R"mlir((%n: i32, %s: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.0 : f64
  %d = arith.constant 0.999 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (i32, f64) -> (i32, f64) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %acc : i32, f64
  } do {
  ^bb0(%i2: i32, %a: f64):
    %f = arith.sitofp %i2 : i32 to f64
    %m = arith.mulf %a, %d : f64
    %s2 = arith.addf %m, %f : f64
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next, %s2 : i32, f64
  }
  return %r#1 : f64
}
)mlir";
}

const std::string kProgram =
    "func.func @approx_state_identity(%s: i32) -> i32 { return %s : i32 }\n" +
    kernel("work_plain") + kernel("work_knob") +
    R"mlir(approx.util.annotation.decision_tree <{func_name = "work_knob",
    transform_type = "loop_perforate", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    decisions = array<i32: 0, 0, 0>, decision_values = array<i32: 0, 2, 4>}>
)mlir";

using Kernel = double(int32_t, int32_t);

int measure(const char *label, const std::string &mode) {
  approx::CompileOptions options;
  options.mode = mode;
  auto jit = approx::JitModule::create(kProgram, "dispatch.mlir", options);
  if (!jit) {
    llvm::errs() << llvm::toString(jit.takeError()) << "\n";
    return 1;
  }
  auto plain = (*jit)->function<Kernel>("work_plain");
  auto knob = (*jit)->function<Kernel>("work_knob");
  if (!plain || !knob) {
    llvm::consumeError(plain.takeError());
    llvm::consumeError(knob.takeError());
    llvm::errs() << "kernels not found\n";
    return 1;
  }
  std::vector<double> tPlain, tKnob;
  volatile double sink = 0;
  for (int r = 0; r < repetitions; ++r) {
    int32_t state = r % 30; // every branch of the tree
    double t0 = nowSeconds();
    sink = sink + (*plain)(iterations, state);
    double t1 = nowSeconds();
    sink = sink + (*knob)(iterations, state);
    double t2 = nowSeconds();
    tPlain.push_back(t1 - t0);
    tKnob.push_back(t2 - t1);
    if ((*plain)(iterations, state) != (*knob)(iterations, state)) {
      llvm::errs() << "exact configuration changed the result\n";
      return 1;
    }
  }
  double p = median(tPlain), k = median(tKnob);
  llvm::outs() << llvm::format("| %s | %.2f | %.2f | %.4f | %+.2f%% |\n",
                               label, 1e6 * p, 1e6 * k, k / p,
                               100.0 * (k / p - 1.0));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "decision-tree dispatch overhead\n");
  llvm::outs() << "## Dispatch overhead at the exact configuration\n\n"
               << "Median of " << repetitions << " alternating calls, "
               << iterations << " loop iterations per call, JIT -O3.\n\n"
               << "| build | plain us | knob us | ratio | overhead |\n"
               << "|---|---|---|---|---|\n";
  return measure("baked", "baked") || measure("runtime table", "runtime");
}
