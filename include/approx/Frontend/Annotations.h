//===- Annotations.h - `// @approx:` comment annotations --------*- C++ -*-===//
//
// Parses the seed's comment annotations from C/C++ source text. No Clang or
// MLIR dependency: the result says what each annotation asks for and where it
// is; approx-cc attaches it to the function or loop that follows.
//
//   // @approx:decision_tree {
//   //   transform_type: func_substitute
//   //   state_indices: [-1]
//   //   thresholds: [5, 10]
//   //   decisions: [0, 1, 2]
//   // }
//   // @approx:loop_perforate thresholds=[100] decisions=[0,2]
//   // @approx:static_transform transform_type=loop_perforate knob_val=2
//   // @approx:safety_contract checker=f_ok recover=f_exact
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_FRONTEND_ANNOTATIONS_H
#define APPROX_FRONTEND_ANNOTATIONS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace approx {

/// A position in the source (1-based).
struct SourcePos {
  unsigned line = 0, col = 0;
};

/// One `key: value` / `key=value` entry.
struct AnnotationValue {
  enum Kind { Identifier, Integer, List } kind = Identifier;
  std::string identifier;
  int64_t integer = 0;
  std::vector<int64_t> list;
  SourcePos pos;
};

struct SourceAnnotation {
  enum Kind { DecisionTree, StaticTransform, SafetyContract } kind;
  SourcePos pos;      // of `@approx:`
  unsigned lastLine;  // last line of the comment (the target follows it)
  std::map<std::string, AnnotationValue> entries;

  const AnnotationValue *get(llvm::StringRef key) const {
    auto it = entries.find(key.str());
    return it == entries.end() ? nullptr : &it->second;
  }
};

/// An error at a position of the parsed text.
struct AnnotationError {
  SourcePos pos;
  std::string message;
};

/// Parses every `// @approx:` annotation of `text`. Errors (unknown kind or
/// key, malformed value, missing required key, unterminated block) are
/// collected; the annotations are valid only when `errors` stays empty.
std::vector<SourceAnnotation> parseAnnotations(llvm::StringRef text,
                                               std::vector<AnnotationError> &errors);

/// Text of `text` that looks like an annotation but is not taken by
/// parseAnnotations: `@APPROX:` or `@approx :` (wrong case or spacing),
/// `/* @approx: */` (annotations are `//` line comments), an annotation
/// after code on the same line or not at the start of its comment. One
/// warning per such marker, at its position.
std::vector<AnnotationError> findNearMisses(llvm::StringRef text);

} // namespace approx

#endif // APPROX_FRONTEND_ANNOTATIONS_H
