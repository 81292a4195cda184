//===- NestingLimit.h - the deepest MLIR text the tools accept --*- C++ -*-===//
//
// MLIR's parser, verifier and passes recurse once per nested region,
// attribute or type, so text nested a few thousand levels deep overflows the
// stack (measured: ~3,500 nested regions or ~7,500 nested array attributes
// with the 8 MiB default). Every tool that reads MLIR text checks it against
// this limit first and reports the first bracket past it with its location
// (docs/reliability.md).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_SUPPORT_NESTINGLIMIT_H
#define APPROX_SUPPORT_NESTINGLIMIT_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace approx {

/// The deepest nesting of `{`, `[` and `(` accepted in MLIR text; well above
/// anything a compiler emits, well below what exhausts the stack.
inline constexpr unsigned kMaxNestingDepth = 1000;

/// The first bracket of `text` nested deeper than `limit` (string literals
/// and `//` comments skipped), or nullptr.
inline const char *findExcessiveNesting(llvm::StringRef text,
                                        unsigned limit = kMaxNestingDepth) {
  unsigned depth = 0;
  for (const char *p = text.begin(), *e = text.end(); p < e; ++p) {
    switch (*p) {
    case '"':
      for (++p; p < e && *p != '"'; ++p)
        if (*p == '\\')
          ++p;
      break;
    case '/':
      if (p + 1 < e && p[1] == '/')
        while (p < e && *p != '\n')
          ++p;
      break;
    case '{':
    case '[':
    case '(':
      if (++depth > limit)
        return p;
      break;
    case '}':
    case ']':
    case ')':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return nullptr;
}

/// Prints a located error to `os` and returns true when the main buffer of
/// `sourceMgr` is nested deeper than the limit.
inline bool reportExcessiveNesting(const llvm::SourceMgr &sourceMgr,
                                   llvm::raw_ostream &os) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  const char *at = findExcessiveNesting(buffer->getBuffer());
  if (!at)
    return false;
  sourceMgr.PrintMessage(os, llvm::SMLoc::getFromPointer(at),
                         llvm::SourceMgr::DK_Error,
                         "nesting deeper than " +
                             llvm::Twine(kMaxNestingDepth) +
                             " levels of regions, attributes or types "
                             "(the limit of the approx tools)");
  return true;
}

} // namespace approx

#endif // APPROX_SUPPORT_NESTINGLIMIT_H
