//===- RuntimeTest.cpp - the approx runtime knob table --------------------===//
#include "approx_runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

/// The cells generated code would keep for its module (one per name).
struct ModuleCells {
  int32_t cells[300] = {};
  int32_t *operator[](size_t i) { return &cells[i]; }
};
ModuleCells table;

/// Writes `text` to a fresh file and returns its path.
std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override { approx_rt_reset(); }
};

TEST_F(RuntimeTest, ParamReturnsDefaultUntilSet) {
  EXPECT_EQ(approx_rt_param(table[0], 7, "k_threshold_0"), 7);
  EXPECT_EQ(approx_rt_param(table[0], 7, "k_threshold_0"), 7);
}

TEST_F(RuntimeTest, SetChangesRegisteredParameter) {
  EXPECT_EQ(approx_rt_param(table[1], 3, "k_decision_0"), 3);
  ASSERT_EQ(approx_rt_set("k_decision_0", 5), 0);
  EXPECT_EQ(approx_rt_param(table[1], 3, "k_decision_0"), 5);
  int32_t v = 0;
  ASSERT_EQ(approx_rt_get("k_decision_0", &v), 0);
  EXPECT_EQ(v, 5);
}

TEST_F(RuntimeTest, SetBeforeFirstReadApplies) {
  ASSERT_EQ(approx_rt_set("early_decision_1", 9), 0);
  EXPECT_EQ(approx_rt_param(table[2], 1, "early_decision_1"), 9);
}

TEST_F(RuntimeTest, ResetRestoresDefaults) {
  EXPECT_EQ(approx_rt_param(table[3], 4, "r_threshold_0"), 4);
  approx_rt_set("r_threshold_0", 40);
  EXPECT_EQ(approx_rt_param(table[3], 4, "r_threshold_0"), 40);
  approx_rt_reset();
  EXPECT_EQ(approx_rt_param(table[3], 4, "r_threshold_0"), 4);
}

TEST_F(RuntimeTest, LoadConfigSetsEveryEntry) {
  approx_rt_param(table[4], 0, "c_threshold_0");
  approx_rt_param(table[5], 0, "c_decision_0");
  std::string path = writeTemp("ok.json", "{\n  \"c_threshold_0\": 12,\n"
                                          "  \"c_decision_0\": -3\n}\n");
  ASSERT_EQ(approx_rt_load_config(path.c_str()), 0) << approx_rt_last_error();
  EXPECT_EQ(approx_rt_param(table[4], 0, "c_threshold_0"), 12);
  EXPECT_EQ(approx_rt_param(table[5], 0, "c_decision_0"), -3);
}

TEST_F(RuntimeTest, LoadConfigReportsLineAndSetsNothing) {
  approx_rt_param(table[6], 1, "bad_threshold_0");
  std::string path =
      writeTemp("bad.json", "{\n  \"bad_threshold_0\": 5,\n  \"x\": 1.5\n}\n");
  EXPECT_EQ(approx_rt_load_config(path.c_str()), -1);
  std::string err = approx_rt_last_error();
  EXPECT_NE(err.find("bad.json:3: values must be integers"), std::string::npos)
      << err;
  EXPECT_EQ(approx_rt_param(table[6], 1, "bad_threshold_0"), 1);
}

TEST_F(RuntimeTest, LoadConfigRejectsMalformedJson) {
  for (const char *text : {"[1, 2]", "{\"a\": 1,}", "{\"a\" 1}",
                           "{\"a\": 99999999999}", "{\"a\": 1} trailing"}) {
    std::string path = writeTemp("malformed.json", text);
    EXPECT_EQ(approx_rt_load_config(path.c_str()), -1) << text;
    EXPECT_NE(std::string(approx_rt_last_error()).find("malformed.json:1:"),
              std::string::npos)
        << approx_rt_last_error();
  }
}

TEST_F(RuntimeTest, LoadConfigMissingFile) {
  EXPECT_EQ(approx_rt_load_config("/nonexistent/approx.json"), -1);
  EXPECT_NE(std::string(approx_rt_last_error()).find("cannot open"),
            std::string::npos);
}

TEST_F(RuntimeTest, GetUnknownParameterFails) {
  int32_t v = 0;
  EXPECT_EQ(approx_rt_get("never_seen", &v), -1);
}

TEST_F(RuntimeTest, ListsRegisteredParameters) {
  size_t before = approx_rt_num_params();
  approx_rt_param(table[100], 0, "listed_knob_val");
  ASSERT_EQ(approx_rt_num_params(), before + 1);
  EXPECT_STREQ(approx_rt_param_name(before), "listed_knob_val");
  EXPECT_EQ(approx_rt_param_name(before + 1), nullptr);
}

TEST_F(RuntimeTest, CellsFollowEveryChange) {
  // Generated code reads a cell without calling the runtime: every way of
  // changing a value must reach it.
  int32_t cell = 4; // the compile-time default, as the module holds it
  EXPECT_EQ(approx_rt_param(&cell, 4, "cell_threshold_0"), 4);
  approx_rt_set("cell_threshold_0", 40);
  EXPECT_EQ(cell, 40);
  approx_rt_reset();
  EXPECT_EQ(cell, 4);
  std::string path = writeTemp("cell.json", "{\"cell_threshold_0\": -2}");
  ASSERT_EQ(approx_rt_load_config(path.c_str()), 0) << approx_rt_last_error();
  EXPECT_EQ(cell, -2);
  // Registering the same cell again (a module loaded twice) keeps one entry.
  EXPECT_EQ(approx_rt_param(&cell, 4, "cell_threshold_0"), -2);
  approx_rt_release(&cell, &cell + 1);
}

TEST_F(RuntimeTest, ModulesKeepTheirOwnCells) {
  // Two modules compiled apart each number their cells from 0: their arrays
  // are distinct, and so are their values.
  int32_t moduleA[1] = {2}, moduleB[1] = {3};
  EXPECT_EQ(approx_rt_param(&moduleA[0], 2, "fa_decision_1"), 2);
  EXPECT_EQ(approx_rt_param(&moduleB[0], 3, "fb_decision_1"), 3);
  approx_rt_set("fb_decision_1", 0);
  EXPECT_EQ(moduleA[0], 2);
  EXPECT_EQ(moduleB[0], 0);
  // One name read by two modules (a knob in a shared header): one value,
  // written into both cells.
  int32_t other[1] = {3};
  EXPECT_EQ(approx_rt_param(&other[0], 3, "fb_decision_1"), 0);
  EXPECT_EQ(other[0], 0);
  approx_rt_set("fb_decision_1", 1);
  EXPECT_EQ(moduleB[0], 1);
  EXPECT_EQ(other[0], 1);
  approx_rt_release(std::begin(moduleA), std::end(moduleA));
  approx_rt_release(std::begin(moduleB), std::end(moduleB));
  approx_rt_release(std::begin(other), std::end(other));
}

TEST_F(RuntimeTest, ModulesMayBeUnloaded) {
  // A module's destructor releases its cells (a JIT module destroyed, a
  // library closed): the runtime writes them no more, the name keeps its
  // value, and a later module reading the same name finds it.
  int32_t unloaded[3] = {9, 4, 9};
  EXPECT_EQ(approx_rt_param(&unloaded[1], 4, "gone_knob_val"), 4);
  approx_rt_release(&unloaded[1], &unloaded[2]);
  approx_rt_set("gone_knob_val", 6);
  EXPECT_EQ(unloaded[1], 4);
  approx_rt_reset();
  approx_rt_set("gone_knob_val", 7);
  EXPECT_EQ(unloaded[0], 9);
  EXPECT_EQ(unloaded[1], 4);
  EXPECT_EQ(unloaded[2], 9);
  int32_t reloaded[1] = {4};
  EXPECT_EQ(approx_rt_param(&reloaded[0], 4, "gone_knob_val"), 7);
  EXPECT_EQ(reloaded[0], 7);
  approx_rt_release(std::begin(reloaded), std::end(reloaded));
}

// Death tests re-execute the binary ("threadsafe" style) so that the child
// starts with a fresh table and reads APPROX_CONFIG itself.
TEST(RuntimeDeathTest, BadApproxConfigStopsTheProgram) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string path = writeTemp("env-bad.json", "{\"a\": }");
  EXPECT_EXIT(
      {
        setenv("APPROX_CONFIG", path.c_str(), 1);
        // The environment is read at the first access in this fresh child.
        approx_rt_param(table[200], 0, "env_param");
      },
      ::testing::ExitedWithCode(2), "APPROX_CONFIG: .*env-bad.json:1");
}

TEST(RuntimeDeathTest, BadApproxConfigExitsThroughModuleDestructors) {
  // exit(2) runs the modules' destructors, which release their cells (the
  // runtime's lock): the bad file must not leave the lock held (a hang).
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string path = writeTemp("env-bad2.json", "{\"a\": }");
  EXPECT_EXIT(
      {
        setenv("APPROX_CONFIG", path.c_str(), 1);
        std::atexit([] { approx_rt_release(table[203], table[204]); });
        approx_rt_param(table[203], 0, "env_dtor_param");
      },
      ::testing::ExitedWithCode(2), "APPROX_CONFIG: .*env-bad2.json:1");
}

TEST(RuntimeDeathTest, ApproxConfigIsAppliedAtFirstRead) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string path = writeTemp("env-ok.json", "{\"env_decision_0\": 6}");
  EXPECT_EXIT(
      {
        setenv("APPROX_CONFIG", path.c_str(), 1);
        std::exit(approx_rt_param(table[201], 0, "env_decision_0"));
      },
      ::testing::ExitedWithCode(6), "");
}

TEST(RuntimeDeathTest, UnreadApproxConfigNameIsReportedAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string path =
      writeTemp("env-typo.json", "{\"env_decision_0\": 6, \"env_decisoin_1\": 2}");
  EXPECT_EXIT(
      {
        setenv("APPROX_CONFIG", path.c_str(), 1);
        approx_rt_param(table[202], 0, "env_decision_0");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "warning: APPROX_CONFIG \\(.*env-typo.json\\) sets 'env_decisoin_1', "
      "which is not a knob of this program \\(misspelled\\?\\)");
}

} // namespace

// The buffer cache behind compiled tensor code: a freed buffer is handed out
// again for its size and alignment only, alignments are honoured, and
// buffers of other sizes are not mixed up.
TEST(BufferCacheTest, ReusesBuffersBySizeAndAlignment) {
  void *a = _mlir_memref_to_llvm_alloc(1000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  memset(a, 0xab, 1000);
  _mlir_memref_to_llvm_free(a);
  void *b = _mlir_memref_to_llvm_alloc(1000);
  EXPECT_EQ(a, b) << "a freed buffer of the same size is reused";
  void *c = _mlir_memref_to_llvm_alloc(1000);
  EXPECT_NE(b, c) << "a buffer in use is not handed out twice";
  void *d = _mlir_memref_to_llvm_aligned_alloc(4096, 1000);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(d) % 4096, 0u);
  EXPECT_NE(d, b);
  EXPECT_NE(d, c);
  _mlir_memref_to_llvm_free(c);
  void *e = _mlir_memref_to_llvm_alloc(2000);
  EXPECT_NE(e, c) << "another size does not take this size's buffer";
  memset(e, 0xcd, 2000);
  void *tiny = _mlir_memref_to_llvm_alloc(0);
  ASSERT_NE(tiny, nullptr);
  _mlir_memref_to_llvm_free(tiny);
  _mlir_memref_to_llvm_free(nullptr);
  for (void *p : {b, d, e})
    _mlir_memref_to_llvm_free(p);
}

// Beyond the cache's capacity freed buffers go back to libc: of two buffers
// of just over half the capacity, only the first freed is kept (the memory
// is never touched, so this costs address space only).
TEST(BufferCacheTest, BuffersBeyondTheCapacityGoBack) {
  size_t big = APPROX_RT_BUFFER_CACHE_BYTES / 2 + 1;
  void *a = _mlir_memref_to_llvm_alloc(big);
  void *b = _mlir_memref_to_llvm_alloc(big);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  _mlir_memref_to_llvm_free(a); // cached
  _mlir_memref_to_llvm_free(b); // over the capacity: freed
  void *c = _mlir_memref_to_llvm_alloc(big);
  EXPECT_EQ(c, a);
  _mlir_memref_to_llvm_free(c);
}
