//===- AnnotationsTest.cpp - `// @approx:` comment parsing ----------------===//
#include "approx/Frontend/Annotations.h"

#include <gtest/gtest.h>

using namespace approx;

namespace {

std::vector<SourceAnnotation> parseOk(const char *text) {
  std::vector<AnnotationError> errors;
  auto anns = parseAnnotations(text, errors);
  for (const AnnotationError &e : errors)
    ADD_FAILURE() << e.pos.line << ":" << e.pos.col << ": " << e.message;
  return anns;
}

AnnotationError parseError(const char *text) {
  std::vector<AnnotationError> errors;
  parseAnnotations(text, errors);
  EXPECT_EQ(errors.size(), 1u);
  return errors.empty() ? AnnotationError{} : errors.front();
}

TEST(AnnotationsTest, BlockFormOfTheSeed) {
  auto anns = parseOk("int x;\n"
                      "// @approx:decision_tree {\n"
                      "//   transform_type: func_substitute\n"
                      "//   state_indices: [-1]\n"
                      "//   state_function: getState\n"
                      "//   thresholds: [5, 10]\n"
                      "//   thresholds_lower: [0, 6]\n"
                      "//   thresholds_upper: [5, 20]\n"
                      "//   decisions: [0, 1, 2]\n"
                      "//   decision_values: [0, 1, 2]\n"
                      "// }\n"
                      "void my_kernel(float *data, int n, int state) {}\n");
  ASSERT_EQ(anns.size(), 1u);
  const SourceAnnotation &a = anns[0];
  EXPECT_EQ(a.kind, SourceAnnotation::DecisionTree);
  EXPECT_EQ(a.pos.line, 2u);
  EXPECT_EQ(a.pos.col, 4u);
  EXPECT_EQ(a.lastLine, 11u);
  EXPECT_EQ(a.get("transform_type")->identifier, "func_substitute");
  EXPECT_EQ(a.get("state_indices")->list, std::vector<int64_t>{-1});
  EXPECT_EQ(a.get("thresholds")->list, (std::vector<int64_t>{5, 10}));
  EXPECT_EQ(a.get("decisions")->list, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(a.get("thresholds_upper")->pos.line, 8u);
}

TEST(AnnotationsTest, SingleLineShorthandIsADecisionTree) {
  auto anns = parseOk("  // @approx:loop_perforate thresholds=[100] decisions=[0,2]\n"
                      "  for (;;) {}\n");
  ASSERT_EQ(anns.size(), 1u);
  EXPECT_EQ(anns[0].kind, SourceAnnotation::DecisionTree);
  EXPECT_EQ(anns[0].get("transform_type")->identifier, "loop_perforate");
  EXPECT_EQ(anns[0].get("decisions")->list, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(anns[0].lastLine, 1u);
}

TEST(AnnotationsTest, ShorthandWithKnobValIsStatic) {
  auto anns = parseOk("// @approx:task_skipping knob_val=1\n");
  ASSERT_EQ(anns.size(), 1u);
  EXPECT_EQ(anns[0].kind, SourceAnnotation::StaticTransform);
  EXPECT_EQ(anns[0].get("knob_val")->integer, 1);
}

TEST(AnnotationsTest, SafetyContract) {
  auto anns = parseOk("// @approx:safety_contract checker=ok recover=exact\n");
  ASSERT_EQ(anns.size(), 1u);
  EXPECT_EQ(anns[0].kind, SourceAnnotation::SafetyContract);
  EXPECT_EQ(anns[0].get("recover")->identifier, "exact");
}

TEST(AnnotationsTest, OrdinaryCommentsAreIgnored) {
  EXPECT_TRUE(parseOk("// mentions @approx: in prose\n/* @approx:x */\n").empty());
}

TEST(AnnotationsTest, UnknownKeyIsLocated) {
  AnnotationError e = parseError("\n// @approx:decision_tree {\n"
                                 "//   transform_type: loop_perforate\n"
                                 "//   treshold: [1]\n// }\n");
  EXPECT_EQ(e.pos.line, 4u);
  EXPECT_EQ(e.pos.col, 6u);
  EXPECT_NE(e.message.find("unknown key 'treshold'"), std::string::npos);
}

TEST(AnnotationsTest, MalformedListIsLocated) {
  AnnotationError e =
      parseError("// @approx:loop_perforate thresholds=[1 2] decisions=[0]\n");
  EXPECT_EQ(e.pos.line, 1u);
  EXPECT_EQ(e.pos.col, 41u);
  EXPECT_EQ(e.message, "malformed list: expected ',' or ']'");
}

TEST(AnnotationsTest, IntegersOutside32BitsAreErrorsNotTruncated) {
  // 4294967298 used to become 2 (its low 32 bits).
  AnnotationError e = parseError("// @approx:static_transform "
                                 "transform_type=loop_perforate knob_val=4294967298\n");
  EXPECT_EQ(e.pos.col, 68u);
  EXPECT_EQ(e.message, "integer 4294967298 does not fit in 32 bits");
  e = parseError("// @approx:loop_perforate thresholds=[5, 99999999999999999999] "
                 "decisions=[0, 2, 3]\n");
  EXPECT_EQ(e.pos.col, 42u);
  EXPECT_EQ(e.message, "integer 99999999999999999999 does not fit in 32 bits");
  EXPECT_EQ(parseOk("// @approx:loop_perforate thresholds=[-2147483648, 2147483647] "
                    "decisions=[0, 2, 3]\n")
                .size(),
            1u);
}

TEST(AnnotationsTest, WrongValueKind) {
  AnnotationError e = parseError("// @approx:static_transform "
                                 "transform_type=loop_perforate knob_val=[2]\n");
  EXPECT_EQ(e.message, "'knob_val' takes an integer");
}

TEST(AnnotationsTest, MissingRequiredKey) {
  AnnotationError e = parseError("// @approx:loop_perforate thresholds=[3]\n");
  EXPECT_EQ(e.message, "annotation lacks required key 'decisions'");
}

TEST(AnnotationsTest, UnknownKindAndUnterminatedBlock) {
  EXPECT_NE(parseError("// @approx:perforate\n").message.find(
                "unknown annotation '@approx:perforate'"),
            std::string::npos);
  EXPECT_EQ(parseError("// @approx:decision_tree {\n//   decisions: [0]\nint x;\n")
                .message,
            "unterminated annotation block: expected '// }'");
}

TEST(AnnotationsTest, DuplicateKey) {
  EXPECT_EQ(parseError("// @approx:safety_contract checker=a checker=b recover=c\n")
                .message,
            "duplicate key 'checker'");
}

} // namespace
