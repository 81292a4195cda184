//===- InputFile.h - the tools' inputs, read with a size limit --*- C++ -*-===//
// Header-only; included by tools/*/ mains.
#ifndef APPROX_TOOLS_COMMON_INPUTFILE_H
#define APPROX_TOOLS_COMMON_INPUTFILE_H

#include "ToolSupport.h"
#include "approx/Support/BoundedRead.h"

namespace approx::tools {

/// The contents of `path` ("-" is stdin), or nullptr after printing an
/// error naming the file (approx::readBounded's limit applies).
inline std::unique_ptr<llvm::MemoryBuffer> readInput(llvm::StringRef tool,
                                                     llvm::StringRef path) {
  auto buffer = approx::readBounded(path);
  if (!buffer) {
    fail(tool, "cannot read '" + path +
                   "': " + llvm::toString(buffer.takeError()));
    return nullptr;
  }
  return std::move(*buffer);
}

} // namespace approx::tools

#endif // APPROX_TOOLS_COMMON_INPUTFILE_H
