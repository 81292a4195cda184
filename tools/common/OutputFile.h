//===- OutputFile.h - outputs that never lose a user's file -----*- C++ -*-===//
//
// Every file a tool writes goes through here: an output that names one of
// the run's inputs is an error, and a regular file is written beside its
// final name and renamed into place only once complete, so that a failed or
// interrupted run leaves the previous file (or none) and never a truncated
// one. The rules (what is the same file, what is written in place) are
// approx_files.h's, which the LLM engine, approx-llm and the compound
// programs use outside LLVM. Header-only; included by tools/*/ mains.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TOOLS_COMMON_OUTPUTFILE_H
#define APPROX_TOOLS_COMMON_OUTPUTFILE_H

#include "ToolSupport.h"
#include "approx_files.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace approx::tools {

/// Whether `path` is written in place rather than through a temporary file:
/// stdout, and existing files that are not regular (/dev/null, a pipe) —
/// renaming over those would replace the device or the pipe.
inline bool writtenInPlace(llvm::StringRef path) {
  return approx_written_in_place(path.str().c_str());
}

/// Fails (message printed, 1 returned) when `output` is the same file as one
/// of `inputs` (links and other spellings included); 0 otherwise.
inline int checkNotAnInput(llvm::StringRef tool, llvm::StringRef output,
                           llvm::ArrayRef<std::string> inputs) {
  std::vector<const char *> paths;
  for (const std::string &in : inputs)
    paths.push_back(in.c_str());
  char why[APPROX_WHY_SIZE];
  if (approx_check_not_an_input(output.str().c_str(), paths.data(),
                                int(paths.size()), why) != 0)
    return fail(tool, why);
  return 0;
}

/// Writes `path` ("-" is stdout) with `write`, which returns false after
/// printing its own error. A regular file appears only when complete; on any
/// failure an existing file is left untouched. 0 on success, else 1.
inline int writeAtomically(llvm::StringRef tool, llvm::StringRef path,
                           llvm::function_ref<bool(llvm::raw_ostream &)> write) {
  auto finish = [&](llvm::raw_fd_ostream &os) -> bool {
    os.flush();
    if (!os.has_error())
      return true;
    std::string why = os.error().message();
    os.clear_error();
    fail(tool, (path == "-" ? llvm::Twine("cannot write to standard output")
                             : "cannot write '" + path + "'") +
                   ": " + why);
    return false;
  };
  if (path == "-")
    return write(llvm::outs()) && finish(llvm::outs()) ? 0 : 1;
  if (writtenInPlace(path)) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fail(tool, "cannot write '" + path + "': " + ec.message());
    return write(os) && finish(os) ? 0 : 1;
  }
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return fail(tool, "cannot write '" + path +
                          "': " + llvm::toString(temp.takeError()));
  bool ok;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    ok = write(os) && finish(os);
  }
  if (!ok) {
    llvm::consumeError(temp->discard());
    return 1;
  }
  if (llvm::Error e = temp->keep(path))
    return fail(tool, "cannot write '" + path + "': " + llvm::toString(std::move(e)));
  return 0;
}

/// Writes `text` to `path` as writeAtomically does.
inline int writeText(llvm::StringRef tool, llvm::StringRef path,
                     llvm::StringRef text) {
  return writeAtomically(tool, path, [&](llvm::raw_ostream &os) {
    os << text;
    return true;
  });
}

/// A file another program writes (clang's object, library or executable):
/// `path()` is a fresh name beside the final one for the program's `-o`;
/// `commit()` renames it into place; otherwise it is removed.
class StagedOutput {
public:
  explicit StagedOutput(llvm::StringRef finalPath) : final(finalPath.str()) {
    if (writtenInPlace(final)) {
      staged = final;
      return;
    }
    llvm::SmallString<256> p;
    llvm::sys::fs::createUniquePath(final + ".tmp-%%%%%%", p,
                                    /*MakeAbsolute=*/false);
    staged = std::string(p);
    llvm::sys::RemoveFileOnSignal(staged); // an interrupted run leaves none
  }
  StagedOutput(const StagedOutput &) = delete;
  StagedOutput &operator=(const StagedOutput &) = delete;
  ~StagedOutput() {
    if (!committed && staged != final)
      llvm::sys::fs::remove(staged);
  }
  const std::string &path() const { return staged; }
  /// 0 on success, else an error is printed and 1 returned.
  int commit(llvm::StringRef tool) {
    committed = true;
    if (staged == final)
      return 0;
    llvm::sys::DontRemoveFileOnSignal(staged);
    if (std::error_code ec = llvm::sys::fs::rename(staged, final)) {
      llvm::sys::fs::remove(staged);
      return fail(tool, "cannot write '" + final + "': " + ec.message());
    }
    return 0;
  }

private:
  std::string final, staged;
  bool committed = false;
};

} // namespace approx::tools

#endif // APPROX_TOOLS_COMMON_OUTPUTFILE_H
