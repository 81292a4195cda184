//===- JitTest.cpp - the in-process JIT API -------------------------------===//
#include "approx/Execution/Execution.h"
#include "approx_runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

using approx::CompileOptions;
using approx::JitModule;

namespace {

/// sum(n, state) = 0 + 1 + ... + (n-1), perforated by a state-driven tree;
/// the state function is external, bound from C++ by name.
constexpr const char *kSumProgram = R"mlir(
func.func private @host_state(i32) -> i32
func.func @sum(%n: i32, %state: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %acc : i32, i32
  } do {
  ^bb0(%i2: i32, %acc2: i32):
    %a = arith.addi %acc2, %i2 : i32
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next, %a : i32, i32
  }
  return %r#1 : i32
}
approx.util.annotation.decision_tree <{func_name = "sum",
    transform_type = "loop_perforate", state_indices = array<i64: -1>,
    state_function = "host_state", thresholds = array<i32: 10>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 100>,
    decisions = array<i32: 0, 2>, decision_values = array<i32: 0, 2, 5>}>
)mlir";

int32_t stateCalls = 0;
extern "C" int32_t hostState(int32_t s) {
  ++stateCalls;
  return s;
}

int32_t predictedSum(int32_t n, int32_t stride) {
  int32_t s = 0;
  for (int32_t i = 0; i < n; i += stride)
    s += i;
  return s;
}

using SumFn = int32_t(int32_t, int32_t);

std::unique_ptr<JitModule> compile(const CompileOptions &options) {
  auto jit = JitModule::create(kSumProgram, "sum.mlir", options,
                               {{"host_state", (void *)&hostState}});
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return nullptr;
  }
  return std::move(*jit);
}

TEST(JitTest, BakedDecisionTreeFollowsTheState) {
  auto jit = compile({});
  ASSERT_TRUE(jit);
  auto sum = jit->function<SumFn>("sum");
  ASSERT_TRUE(bool(sum)) << llvm::toString(sum.takeError());
  stateCalls = 0;
  EXPECT_EQ((*sum)(100, 3), predictedSum(100, 1));  // below the threshold
  EXPECT_EQ((*sum)(100, 10), predictedSum(100, 2)); // at it
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 2));
  EXPECT_EQ(stateCalls, 3);
}

TEST(JitTest, ExactBuildSkipsTheStateFunction) {
  CompileOptions options;
  options.exact = true;
  auto jit = compile(options);
  ASSERT_TRUE(jit);
  auto sum = jit->function<SumFn>("sum");
  ASSERT_TRUE(bool(sum));
  stateCalls = 0;
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 1));
  EXPECT_EQ(stateCalls, 0);
}

TEST(JitTest, RuntimeTableServesEveryConfigurationWithoutRecompiling) {
  CompileOptions options;
  options.mode = "runtime";
  auto jit = compile(options);
  ASSERT_TRUE(jit);
  auto sum = jit->function<SumFn>("sum");
  ASSERT_TRUE(bool(sum));
  approx_rt_reset();
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 2)); // annotation defaults
  approx_rt_set("sum_decision_1", 5);
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 5));
  approx_rt_set("sum_threshold_0", 60);
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 1));
  approx_rt_set("sum_decision_0", 2);
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 2));
  approx_rt_reset();
  EXPECT_EQ((*sum)(100, 50), predictedSum(100, 2));
}

TEST(JitTest, DestroyedModulesAreForgotten) {
  // A JIT module's destructor releases its cells: values set after it is
  // gone are not written into its (unmapped) memory, and a module compiled
  // later reads them.
  CompileOptions options;
  options.mode = "runtime";
  approx_rt_reset();
  for (int round = 0; round < 3; ++round) {
    auto jit = compile(options);
    ASSERT_TRUE(jit);
    auto sum = jit->function<SumFn>("sum");
    ASSERT_TRUE(bool(sum));
    EXPECT_EQ((*sum)(100, 50), predictedSum(100, round ? 5 : 2)) << round;
    jit.reset();
    approx_rt_set("sum_decision_1", 5);
  }
  approx_rt_reset();
}

TEST(JitTest, BakedAndRuntimeBuildsAgree) {
  CompileOptions runtime;
  runtime.mode = "runtime";
  auto dyn = compile(runtime);
  ASSERT_TRUE(dyn);
  auto dynSum = dyn->function<SumFn>("sum");
  ASSERT_TRUE(bool(dynSum));
  std::string path = ::testing::TempDir() + "agree.json";
  {
    FILE *f = fopen(path.c_str(), "w");
    ASSERT_TRUE(f);
    fputs("{\"sum_threshold_0\": 25, \"sum_decision_1\": 5}", f);
    fclose(f);
  }
  CompileOptions baked;
  baked.configPath = path;
  auto fixed = compile(baked);
  ASSERT_TRUE(fixed);
  auto fixedSum = fixed->function<SumFn>("sum");
  ASSERT_TRUE(bool(fixedSum));
  approx_rt_reset();
  ASSERT_EQ(approx_rt_load_config(path.c_str()), 0) << approx_rt_last_error();
  std::remove(path.c_str()); // read by both builds and the runtime: not left in TempDir
  for (int32_t state : {0, 24, 25, 99})
    EXPECT_EQ((*dynSum)(1000, state), (*fixedSum)(1000, state)) << state;
  approx_rt_reset();
}

TEST(JitTest, ErrorsCarryLocations) {
  const char *bad = R"mlir(
func.func @f(%x: i32) -> i32 { return %x : i32 }
approx.util.annotation.static_transform <{func_name = "g",
    transform_type = "loop_perforate", knob_val = 2 : i32}>
)mlir";
  auto jit = JitModule::create(bad, "bad.mlir", {});
  ASSERT_FALSE(bool(jit));
  std::string msg = llvm::toString(jit.takeError());
  EXPECT_NE(msg.find("bad.mlir:3:1: error: 'approx.util.annotation.static_"
                     "transform' op annotated function 'g' is not defined"),
            std::string::npos)
      << msg;
}

/// Tensor code whose loop runs on OpenMP threads: the JIT loads LLVM's
/// OpenMP runtime for it.
TEST(JitTest, TensorCodeRunsOnThreads) {
  const char *program = R"mlir(
func.func @twice(%x: tensor<256x512xf32>) -> tensor<256x512xf32>
    attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<256x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.addf %v, %v : f32
    linalg.yield %y : f32
  } -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
)mlir";
  auto jit = JitModule::create(program, "twice.mlir", {});
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  struct Memref2D {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  };
  using TwiceFn = void(Memref2D *, Memref2D *);
  auto twice = (*jit)->function<TwiceFn>("_mlir_ciface_twice");
  ASSERT_TRUE(bool(twice));
  std::vector<float> x(256 * 512);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 1000);
  Memref2D in{x.data(), x.data(), 0, {256, 512}, {512, 1}}, out{};
  (*twice)(&out, &in);
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(out.aligned[i], 2 * x[i]) << i;
  _mlir_memref_to_llvm_free(out.allocated);
}

TEST(JitTest, MissingSymbolIsAnError) {
  auto jit = compile({});
  ASSERT_TRUE(jit);
  auto missing = jit->lookup("no_such_function");
  EXPECT_FALSE(bool(missing));
  llvm::consumeError(missing.takeError());
}

} // namespace
