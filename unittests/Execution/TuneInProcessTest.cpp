//===- TuneInProcessTest.cpp - tuning through an evaluate callback --------===//
//
// The tuner's C++ API with an in-process evaluator: a JIT-compiled
// runtime-table build whose knob table the callback sets before each
// measurement; no process is started and nothing is recompiled.
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Execution/Execution.h"
#include "approx/Tuner/Search.h"
#include "approx/Tuner/SpaceFromMLIR.h"
#include "approx_runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

namespace {

/// sum(n, state): 0 + 1 + ... + (n-1) with a loop perforated by a decision
/// tree on the state.
constexpr const char *kProgram = R"mlir(
func.func @approx_state_identity(%s: i32) -> i32 { return %s : i32 }
func.func @sum(%n: i32, %state: i32) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %ub = arith.index_cast %n : i32 to index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %z) -> (i64) {
    %v = arith.index_cast %i : index to i64
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  return %r : i64
}
approx.util.annotation.decision_tree <{func_name = "sum",
    transform_type = "loop_perforate", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 50>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 100>,
    decisions = array<i32: 0, 2>, decision_values = array<i32: 0, 2, 3, 4>}>
)mlir";

int64_t sumWithStride(int64_t n, int64_t stride) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; i += stride)
    s += i;
  return s;
}

TEST(TuneInProcessTest, CallbackTunesAJitRuntimeTableBuild) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<approx::ApproxDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::scf::SCFDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kProgram, &ctx);
  ASSERT_TRUE(module);
  approx::tune::Space space = *approx::tune::spaceFromAnnotations(*module);
  ASSERT_EQ(space.params.size(), 3u);

  approx::CompileOptions options;
  options.mode = "runtime";
  auto jit = approx::JitModule::create(kProgram, "sum.mlir", options);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  auto sum = (*jit)->function<int64_t(int32_t, int32_t)>("sum");
  ASSERT_TRUE(bool(sum));

  // The workload: states 0..99, each with its exact answer.
  const int32_t n = 20000;
  std::vector<double> exact;
  for (int32_t s = 0; s < 100; ++s)
    exact.push_back(double(sumWithStride(n, 1)));

  int calls = 0;
  approx::tune::EvaluateFn evaluate = [&](const approx::tune::Config &c,
                                          approx::tune::InputSet) {
    ++calls;
    approx_rt_reset();
    for (const auto &[name, value] : c)
      approx_rt_set(name.c_str(), int32_t(value));
    auto start = std::chrono::steady_clock::now();
    double num = 0, den = 0;
    for (int32_t s = 0; s < 100; ++s) {
      double got = double((*sum)(n, s));
      num += (got - exact[size_t(s)]) * (got - exact[size_t(s)]);
      den += exact[size_t(s)] * exact[size_t(s)];
    }
    approx::tune::Measurement m;
    m.time = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           start)
                 .count();
    m.samples = {m.time};
    m.qos = std::max(0.0, 1 - std::sqrt(num / den));
    return m;
  };

  approx::tune::TuneOptions tuneOptions;
  tuneOptions.qosMin = 0.75;
  tuneOptions.maxEvals = 60;
  approx::tune::TuneResult r = approx::tune::tune(space, evaluate, tuneOptions);
  ASSERT_TRUE(r.baselineOk());
  EXPECT_EQ(calls, 61);
  EXPECT_EQ(r.failed, 0u);
  ASSERT_GE(r.best, 0);
  const approx::tune::Evaluation &best = r.evaluations[size_t(r.best)];
  EXPECT_GE(best.result.qos, 0.75);
  EXPECT_TRUE(space.validate(best.config).empty());

  // The measured QoS is the program's: predict it from the configuration.
  int64_t t = best.config.at("sum_threshold_0");
  double num = 0, den = 0;
  for (int32_t s = 0; s < 100; ++s) {
    int64_t d = best.config.at(s < t ? "sum_decision_0" : "sum_decision_1");
    double got = double(sumWithStride(n, std::max<int64_t>(d, 1)));
    num += (got - exact[size_t(s)]) * (got - exact[size_t(s)]);
    den += exact[size_t(s)] * exact[size_t(s)];
  }
  EXPECT_NEAR(best.result.qos, 1 - std::sqrt(num / den), 1e-12);
  approx_rt_reset();
}

} // namespace
