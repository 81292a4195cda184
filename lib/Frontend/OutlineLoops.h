//===- OutlineLoops.h - annotated loops out of functions with EH -*- C++ -*-===//
//
// A function with C++ exception handling (objects with destructors around
// calls that may throw, try/catch) stays an llvm.func: its invoke and
// landingpad edges cannot be lifted to scf, so its loops cannot carry
// knobs. An annotated loop of such a function is moved into a function of
// its own, in the LLVM IR clang generated, before the import: the loop's
// calls that unwind to the function's cleanup become plain calls, and the
// call of the new function unwinds there instead, so an exception thrown in
// the loop runs the same cleanups and reaches the same handlers. The new
// function takes the loop's inputs and then every argument of the function
// (a knob's state_indices still name those), and has no exception handling:
// it is raised and lifted like any other, and its loop takes the knob.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_LIB_FRONTEND_OUTLINELOOPS_H
#define APPROX_LIB_FRONTEND_OUTLINELOOPS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace approx {

/// Whether `f` has exception handling (invoke, landingpad, resume), which
/// keeps it from being raised.
bool usesExceptions(const llvm::Function &f);

struct OutlinedLoop {
  /// The new function (empty when the loop could not be moved; see whyNot).
  std::string symbol;
  /// Its parameters before the enclosing function's arguments (the loop's
  /// inputs): a state index i >= 0 of the annotation is i + inputs there.
  unsigned inputs = 0;
  std::string whyNot;
};

/// Moves the outermost loop of `function` that starts at source line
/// `line` into a function of its own (above). The loop must not handle
/// exceptions itself (a try in its body: objects with destructors in its
/// body are fine, their cleanups are outside the loop), and its calls that
/// may throw must all unwind to one place, whose code does not depend on
/// the iteration.
OutlinedLoop outlineLoop(llvm::Module &module, llvm::StringRef function,
                         unsigned line);

} // namespace approx

#endif // APPROX_LIB_FRONTEND_OUTLINELOOPS_H
