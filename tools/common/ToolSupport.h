//===- ToolSupport.h - shared helpers of the approx drivers -----*- C++ -*-===//
// Header-only; included by tools/*/ mains.
#ifndef APPROX_TOOLS_COMMON_TOOLSUPPORT_H
#define APPROX_TOOLS_COMMON_TOOLSUPPORT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

#include <string>
#include <vector>

namespace approx::tools {

/// Prints `<tool>: error: msg` and returns 1, for `return fail(...)`.
inline int fail(llvm::StringRef tool, const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), tool) << msg << "\n";
  return 1;
}

/// The directory holding libapprox_runtime.a: `<bindir>/../lib`, the same in
/// the build tree and in an installation.
inline std::string runtimeLibDir(const char *argv0, void *anchor) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, anchor);
  llvm::SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, "lib");
  return std::string(dir);
}

#ifdef APPROX_OMP_LIBRARY
/// What compiled programs link after the user's libraries: the approx
/// runtime, LLVM's OpenMP runtime (tensor code's parallel loops; a dependency
/// only of code that calls it), pthreads and libm.
inline std::vector<std::string> runtimeLibraries() {
  return {"-lapprox_runtime", "-Wl,--push-state,--as-needed",
          APPROX_OMP_LIBRARY, "-Wl,--pop-state",
          "-lpthread",        "-lm"};
}
#endif

/// Shows only the options of `categories` (and --help, --version) in
/// --help, as clang does; LLVM's own options stay listed by --help-hidden.
inline void showOnlyOwnOptions(
    std::initializer_list<const llvm::cl::OptionCategory *> categories) {
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    bool own = llvm::any_of(option->Categories, [&](auto *c) {
      return llvm::is_contained(categories, c) ||
             c->getName() == "Generic Options"; // --help, --version
    });
    if (!own && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

/// Runs `program` with `args` (args[0] included); 0 on success, else an
/// error is printed and 1 returned.
inline int runTool(llvm::StringRef tool, llvm::StringRef program,
                   const std::vector<std::string> &args) {
  std::vector<llvm::StringRef> refs(args.begin(), args.end());
  std::string err;
  int rc = llvm::sys::ExecuteAndWait(program, refs, std::nullopt, {}, 0, 0,
                                     &err);
  if (rc < 0)
    return fail(tool, "cannot run '" + program + "': " + err);
  if (rc != 0)
    return fail(tool, llvm::sys::path::filename(program) + " failed (exit " +
                          llvm::Twine(rc) + ")");
  return 0;
}

} // namespace approx::tools

#endif // APPROX_TOOLS_COMMON_TOOLSUPPORT_H
