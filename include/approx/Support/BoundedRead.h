//===- BoundedRead.h - reading files with a size limit ----------*- C++ -*-===//
//
// The one way the compiler and the tools read a user's file: a regular file
// is mapped as usual, stdin ("-") and special files (pipes, /dev/zero) are
// read in chunks, and anything larger than the limit is an error instead of
// memory growing without bound. Header-only (LLVM Support only).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_SUPPORT_BOUNDEDREAD_H
#define APPROX_SUPPORT_BOUNDEDREAD_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace approx {

/// The largest file read: MLIR, C sources and configurations of real
/// programs are far smaller.
inline constexpr uint64_t kMaxInputBytes = uint64_t(1) << 30;

/// The contents of `path` ("-" is stdin); the error says why not (without
/// the file's name, which the caller prints with its location).
inline llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readBounded(llvm::StringRef path, uint64_t limit = kMaxInputBytes) {
  auto tooLarge = [&] {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "larger than " + llvm::Twine(limit >> 20) + " MiB, the limit of an input");
  };
  llvm::sys::fs::file_status st;
  bool regular = path != "-" && !llvm::sys::fs::status(path, st) &&
                 st.type() == llvm::sys::fs::file_type::regular_file;
  if (regular) {
    if (st.getSize() > limit)
      return tooLarge();
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer)
      return llvm::errorCodeToError(buffer.getError());
    return std::move(*buffer);
  }
  llvm::Expected<llvm::sys::fs::file_t> fd =
      path == "-" ? llvm::sys::fs::getStdinHandle()
                  : llvm::sys::fs::openNativeFileForRead(path);
  if (!fd)
    return fd.takeError();
  auto close = [&] {
    if (path != "-")
      llvm::sys::fs::closeFile(*fd);
  };
  llvm::SmallString<0> text;
  char chunk[1 << 16];
  for (;;) {
    llvm::Expected<size_t> got = llvm::sys::fs::readNativeFile(
        *fd, llvm::MutableArrayRef<char>(chunk, sizeof chunk));
    if (!got) {
      close();
      return got.takeError();
    }
    if (*got == 0)
      break;
    if (text.size() + *got > limit) {
      close();
      return tooLarge();
    }
    text.append(chunk, chunk + *got);
  }
  close();
  return llvm::MemoryBuffer::getMemBufferCopy(text, path == "-" ? "<stdin>"
                                                                : path);
}

} // namespace approx

#endif // APPROX_SUPPORT_BOUNDEDREAD_H
