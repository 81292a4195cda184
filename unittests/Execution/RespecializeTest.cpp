//===- RespecializeTest.cpp - JIT re-specialisation under the controller --===//
#include "approx/Execution/Respecialize.h"
#include "approx_runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

using approx::Respecializer;
using approx::RespecializeOptions;

namespace {

/// sum(n, state) = 0 + 1 + ... + (n-1), perforated by a state-driven tree:
/// below the threshold the first decision's stride, at or above it the
/// second's.
constexpr const char *kProgram = R"mlir(
func.func @identity(%s: i32) -> i32 { return %s : i32 }
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
    state_function = "identity", thresholds = array<i32: 10>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 100>,
    decisions = array<i32: 0, 2>, decision_values = array<i32: 0, 2, 5>}>
)mlir";

int32_t predictedSum(int32_t n, int32_t stride) {
  int32_t s = 0;
  for (int32_t i = 0; i < n; i += stride)
    s += i;
  return s;
}

using SumFn = int32_t(int32_t, int32_t);

/// A controller on a frontier: the fastest point perforates by 5
/// everywhere, the next by 2 at or above the threshold, the last is exact.
/// The file is removed once read (approx_ctl_open reads it whole).
approx_ctl *openFrontier(const char *rows, const approx_ctl_goal &goal) {
  std::string path = ::testing::TempDir() + "respecialize-front.csv";
  FILE *f = std::fopen(path.c_str(), "w");
  std::fputs("time_s,qos,speedup,sum_threshold_0,sum_decision_0,sum_decision_1\n", f);
  std::fputs(rows, f);
  std::fclose(f);
  approx_ctl *ctl = approx_ctl_open(path.c_str(), &goal);
  std::remove(path.c_str());
  return ctl;
}

struct Fixture {
  approx_ctl *ctl = nullptr;
  std::unique_ptr<Respecializer> r;
  explicit Fixture(const char *rows, unsigned settle = 3) {
    approx_ctl_goal goal = approx_ctl_defaults();
    goal.target_seconds = 0.012; // only the fastest point (10 ms of 40) fits
    goal.check_params = 0;       // the table build registers them below
    ctl = openFrontier(rows, goal);
    EXPECT_TRUE(ctl) << approx_rt_last_error();
    RespecializeOptions options;
    options.settleUnits = settle;
    auto created = Respecializer::create(kProgram, "sum.mlir", ctl, options);
    EXPECT_TRUE(bool(created)) << llvm::toString(created.takeError());
    r = std::move(*created);
  }
  ~Fixture() {
    r.reset();
    approx_ctl_close(ctl);
    approx_rt_reset();
  }
  /// One unit at a machine speed: returns sum(100, 50) as the active build
  /// computes it on the unit's point.
  int32_t unit(double speed) {
    int p = approx_ctl_begin(ctl);
    auto sum = r->function<SumFn>("sum");
    EXPECT_TRUE(bool(sum));
    int32_t out = (*sum)(100, 50);
    approx_ctl_end_with(ctl, speed * 0.040 * approx_ctl_point_relative_time(ctl, p));
    r->step();
    return out;
  }
};

constexpr const char *kRows = "1.0,0.8,4,10,5,5\n2.0,0.9,2,10,0,2\n4.0,1.0,1,10,0,0\n";

TEST(RespecializeTest, SettledPointIsBakedAndGivesTheSameOutputs) {
  Fixture f(kRows);
  EXPECT_EQ(f.unit(1), predictedSum(100, 1)); // the exact point, table build
  EXPECT_EQ(approx_ctl_point(f.ctl), 0);      // moved to the fastest at once
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(f.unit(1), predictedSum(100, 5)); // table build on point 0
    EXPECT_EQ(f.r->specialisedPoint(), -1);
  }
  f.r->finishCompile();
  EXPECT_EQ(f.r->specialisedPoint(), 0) << f.r->lastError();
  EXPECT_EQ(f.r->stats().compiles, 1u);
  EXPECT_GT(f.r->stats().lastCompileSeconds, 0);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(f.unit(1), predictedSum(100, 5)); // the baked build, same output
  EXPECT_EQ(f.r->specialisedPoint(), 0);
}

TEST(RespecializeTest, AMovedPointFallsBackAtOnceAndComesBackWithoutRecompiling) {
  Fixture f(kRows, /*settle=*/10); // no point but 0 settles in this test
  for (int i = 0; i < 11; ++i)
    f.unit(1);
  f.r->finishCompile();
  ASSERT_EQ(f.r->specialisedPoint(), 0) << f.r->lastError();
  // The machine speeds up ten-fold: the controller climbs to the exact
  // point (through point 1, by the hysteresis' holds).
  EXPECT_EQ(f.unit(0.1), predictedSum(100, 5)); // the baked build on point 0
  for (int i = 0; i < 12 && approx_ctl_point(f.ctl) != 2; ++i) {
    bool onPoint0 = approx_ctl_point(f.ctl) == 0;
    int32_t out = f.unit(0.1);
    if (!onPoint0) { // the table build on point 1: stride 2 at the state 50
      EXPECT_EQ(out, predictedSum(100, 2));
    }
    if (approx_ctl_point(f.ctl) != 0) {
      EXPECT_EQ(f.r->specialisedPoint(), -1); // fell back with the step that moved
    }
  }
  ASSERT_EQ(approx_ctl_point(f.ctl), 2);
  EXPECT_EQ(f.r->stats().fallbacks, 1u);
  EXPECT_EQ(f.r->stats().compiles, 1u);
  EXPECT_EQ(f.unit(0.1), predictedSum(100, 1)); // the table build on the exact point
  // Slow again: back on point 0, whose baked build is swapped in at once.
  f.unit(1);
  ASSERT_EQ(approx_ctl_point(f.ctl), 0);
  f.unit(1);
  EXPECT_EQ(f.r->specialisedPoint(), 0);
  EXPECT_EQ(f.r->stats().swaps, 2u);
  EXPECT_EQ(f.unit(1), predictedSum(100, 5));
}

TEST(RespecializeTest, AFailedBakedCompileKeepsTheTableBuild) {
  // Point 0's decision 3 is no decision value of the tree: the baked build
  // refuses it; the table build keeps serving the point.
  Fixture f("1.0,0.8,4,10,3,3\n4.0,1.0,1,10,0,0\n");
  for (int i = 0; i < 5; ++i)
    f.unit(1);
  f.r->finishCompile();
  EXPECT_EQ(f.r->specialisedPoint(), -1);
  EXPECT_NE(f.r->lastError().find("sum"), std::string::npos) << f.r->lastError();
  for (int i = 0; i < 5; ++i)
    f.unit(1);
  EXPECT_EQ(f.r->stats().compiles, 1u); // not retried
}

TEST(RespecializeTest, ABadProgramIsALocatedError) {
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = 0.012;
  goal.check_params = 0;
  approx_ctl *ctl = openFrontier(kRows, goal);
  ASSERT_TRUE(ctl);
  auto r = Respecializer::create("func.func @f(", "bad.mlir", ctl);
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("bad.mlir:1:"), std::string::npos);
  auto none = Respecializer::create(kProgram, "sum.mlir", nullptr);
  ASSERT_FALSE(bool(none));
  EXPECT_EQ(llvm::toString(none.takeError()), "Respecializer: no controller");
  approx_ctl_close(ctl);
}

} // namespace
