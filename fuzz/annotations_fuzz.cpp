//===- annotations_fuzz.cpp - libFuzzer target: `// @approx:` parsing -----===//
// Any text: the parser and the near-miss scanner return (errors or not) and
// every position they report lies inside the text.
#include "approx/Frontend/Annotations.h"

#include <cstdint>
#include <cstdlib>
#include <string>

static void checkPos(const approx::SourcePos &pos, const std::string &text) {
  // Lines are 1-based and at most one more than the newlines in the text.
  size_t lines = 1;
  for (char c : text)
    lines += c == '\n';
  if (pos.line == 0 || pos.line > lines)
    std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<approx::AnnotationError> errors;
  std::vector<approx::SourceAnnotation> anns =
      approx::parseAnnotations(text, errors);
  for (const approx::AnnotationError &e : errors)
    checkPos(e.pos, text);
  for (const approx::SourceAnnotation &a : anns)
    checkPos(a.pos, text);
  for (const approx::AnnotationError &w : approx::findNearMisses(text))
    checkPos(w.pos, text);
  return 0;
}
