//===- Passes.h - C/C++ frontend passes -------------------------*- C++ -*-===//
#ifndef APPROX_FRONTEND_PASSES_H
#define APPROX_FRONTEND_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace approx {

/// Why raise-llvm-to-std keeps function `name` of `module` an llvm.func
/// (so no knob can apply to it): it is variadic, its address is taken, it
/// uses computed goto or C++ exceptions, or its calling convention is not
/// C; "it is not emitted" when the module has no such function; "" when it
/// is (or would be) raised. The pass decides with the same rules.
std::string whyNotRaised(mlir::ModuleOp module, llvm::StringRef name);

#define GEN_PASS_DECL
#include "approx/Frontend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "approx/Frontend/Passes.h.inc"

} // namespace approx

#endif // APPROX_FRONTEND_PASSES_H
