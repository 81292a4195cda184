//===- PipelineBench.cpp - approx-opt pipeline time and code growth -------===//
//
// Generates annotated programs of known shape, runs the approx pipeline (plus
// canonicalize/cse) in process, and reports as markdown:
//  - pipeline time per knob and per function (median of repeated runs) for
//    programs of 1..N functions with one or four knobs each;
//  - code growth per knob: operations added by a 3-threshold decision tree
//    over the same program without annotations, for bodies of 10..1000 ops.
//    Growth that does not follow the body size means the body is not
//    duplicated per decision.
//
//===----------------------------------------------------------------------===//
#include "../BenchUtil.h"
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Pipeline/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using approx::bench::median;
using approx::bench::nowSeconds;

namespace {

llvm::cl::opt<int> repetitions("repetitions",
                               llvm::cl::desc("Timed runs per measurement"),
                               llvm::cl::init(15));
llvm::cl::opt<int> maxFunctions("max-functions",
                                llvm::cl::desc("Largest program, in functions"),
                                llvm::cl::init(200));

/// One function whose loops each hold `bodyOps` arithmetic ops; `loops`
/// sibling loops. Transform-specific shape: task_skipping puts the body in
/// an scf.if.
std::string function(const std::string &name, int loops, int bodyOps,
                     const std::string &transform) {
  std::string s = "func.func @" + name +
                  "(%n: index, %x: f64, %s: i32) -> f64 {\n"
                  "  %c0 = arith.constant 0 : index\n"
                  "  %c1 = arith.constant 1 : index\n"
                  "  %zero = arith.constant 0.0 : f64\n";
  std::string acc = "%x";
  for (int l = 0; l < loops; ++l) {
    std::string res = "%r" + std::to_string(l);
    s += "  " + res + " = scf.for %i" + std::to_string(l) +
         " = %c0 to %n step %c1 iter_args(%a = " + acc + ") -> (f64) {\n";
    std::string body, cur = "%a";
    for (int j = 0; j < bodyOps; ++j) {
      std::string v = "%t" + std::to_string(j);
      body += "    " + v + " = arith." + (j % 2 ? "addf " : "mulf ") + cur +
              ", %x : f64\n";
      cur = v;
    }
    if (transform == "task_skipping") {
      s += "    %big = arith.cmpf ogt, %a, %zero : f64\n"
           "    %v = scf.if %big -> f64 {\n" +
           body + "    scf.yield " + cur +
           " : f64\n    } else {\n    scf.yield %a : f64\n    }\n"
           "    scf.yield %v : f64\n  }\n";
    } else {
      s += body + "    scf.yield " + cur + " : f64\n  }\n";
    }
    acc = res;
  }
  s += "  return " + acc + " : f64\n}\n";
  if (transform == "func_substitute")
    for (int k = 1; k <= 3; ++k)
      s += "func.func private @approx_" + name + "_" + std::to_string(k) +
           "(index, f64, i32) -> f64\n";
  return s;
}

std::string annotation(const std::string &func, const std::string &transform,
                       int loop, bool perLoop) {
  std::string s = "approx.util.annotation.decision_tree <{func_name = \"" +
                  func + "\", transform_type = \"" + transform +
                  "\", state_indices = array<i64: -1>, state_function = "
                  "\"state\", thresholds = array<i32: 10, 20, 30>, decisions = "
                  "array<i32: 0, 1, 2, 3>";
  if (transform == "task_skipping")
    s = "approx.util.annotation.decision_tree <{func_name = \"" + func +
        "\", transform_type = \"task_skipping\", state_indices = array<i64: "
        "-1>, state_function = \"state\", thresholds = array<i32: 10, 20>, "
        "decisions = array<i32: 0, 1, 2>";
  if (perLoop)
    s += ", knob_name = \"l" + std::to_string(loop) +
         "\", loop_path = array<i64: " + std::to_string(loop) + ">";
  return s + "}>\n";
}

std::string program(int functions, int knobsPerFunction, int bodyOps,
                    const std::string &transform, bool annotate) {
  std::string s = "func.func @state(%s: i32) -> i32 { return %s : i32 }\n";
  for (int f = 0; f < functions; ++f) {
    std::string name = "kernel" + std::to_string(f);
    s += function(name, knobsPerFunction, bodyOps, transform);
    if (!annotate)
      continue;
    if (knobsPerFunction == 1)
      s += annotation(name, transform, 0, false);
    else
      for (int l = 0; l < knobsPerFunction; ++l)
        s += annotation(name, transform, l, true);
  }
  return s;
}

struct Compiled {
  double seconds;
  int64_t ops;
};

/// Parses and runs the approx pipeline + canonicalize + cse; returns the
/// time of the passes (not the parse) and the op count of the result.
Compiled run(MLIRContext &ctx, const std::string &text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module) {
    llvm::errs() << "benchmark program does not parse\n";
    std::exit(1);
  }
  PassManager pm(&ctx);
  approx::buildApproxPipeline(
      pm, {"", "baked", false, approx::PipelineStage::Approx});
  double t0 = nowSeconds();
  if (failed(pm.run(*module))) {
    llvm::errs() << "pipeline failed on a benchmark program\n";
    std::exit(1);
  }
  double t = nowSeconds() - t0;
  int64_t ops = 0;
  module->walk([&](Operation *) { ++ops; });
  return {t, ops};
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "approx pipeline time and code growth\n");
  DialectRegistry registry;
  registerAllDialects(registry);
  approx::registerApproxDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  llvm::outs() << "## Pipeline time (approx pipeline + canonicalize + cse)\n\n"
               << "Median of " << repetitions
               << " runs; loop_perforate decision trees with 3 thresholds, "
                  "bodies of 20 ops.\n\n"
               << "| functions | knobs/function | knobs | median ms | ms/knob "
                  "| ms/function |\n|---|---|---|---|---|---|\n";
  for (int knobs : {1, 4}) {
    for (int f = 1; f <= maxFunctions; f *= 10) {
      std::string text = program(f, knobs, 20, "loop_perforate", true);
      std::vector<double> times;
      for (int r = 0; r < repetitions; ++r)
        times.push_back(run(ctx, text).seconds);
      double ms = 1e3 * median(times);
      llvm::outs() << llvm::format("| %d | %d | %d | %.3f | %.4f | %.4f |\n", f,
                                   knobs, f * knobs, ms, ms / (f * knobs),
                                   ms / f);
    }
  }

  llvm::outs() << "\n## Code growth per knob\n\n"
               << "Operations after the pipeline (+ canonicalize, cse) minus "
                  "those of the same program without annotations, one "
                  "whole-function knob.\n\n"
               << "| transform | body ops | plain ops | approx ops | added "
                  "ops/knob |\n|---|---|---|---|---|\n";
  for (const char *transform :
       {"loop_perforate", "func_substitute", "task_skipping"}) {
    for (int body : {10, 100, 1000}) {
      Compiled plain = run(ctx, program(1, 1, body, transform, false));
      Compiled approx = run(ctx, program(1, 1, body, transform, true));
      llvm::outs() << llvm::format("| %s | %d | %lld | %lld | %lld |\n",
                                   transform, body, (long long)plain.ops,
                                   (long long)approx.ops,
                                   (long long)(approx.ops - plain.ops));
    }
  }
  return 0;
}
