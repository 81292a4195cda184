//===- CrashGuard.h - a crash in MLIR or LLVM as an error -------*- C++ -*-===//
//
// Upstream code can crash on invalid input: MLIR 22's linalg.reduce parser
// dereferences a null attribute after reporting a syntax error inside a
// nested region (found by fuzz/pipeline_fuzz; mlir-opt crashes the same
// way). The tools run their work under this guard, so such a crash ends the
// run as a reported internal error with a non-zero exit, after the located
// errors already printed, and nothing is written. Header-only (LLVM only).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_SUPPORT_CRASHGUARD_H
#define APPROX_SUPPORT_CRASHGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

namespace approx {

/// Runs `work` (on this thread); true if it returned, false after printing
/// `tool: error: internal error: ...` if it crashed.
inline bool runGuarded(llvm::StringRef tool, const llvm::Twine &what,
                       llvm::function_ref<void()> work) {
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext crc;
  if (crc.RunSafely(work))
    return true;
  llvm::errs() << tool << ": error: internal error: " << what
               << " crashed in MLIR/LLVM (an upstream bug; the errors above, "
                  "if any, locate the problem in the input); nothing was "
                  "written\n";
  return false;
}

} // namespace approx

#endif // APPROX_SUPPORT_CRASHGUARD_H
