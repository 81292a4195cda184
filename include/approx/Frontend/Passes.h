//===- Passes.h - C/C++ frontend passes -------------------------*- C++ -*-===//
#ifndef APPROX_FRONTEND_PASSES_H
#define APPROX_FRONTEND_PASSES_H

#include "mlir/Pass/Pass.h"

namespace approx {

#define GEN_PASS_DECL
#include "approx/Frontend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "approx/Frontend/Passes.h.inc"

} // namespace approx

#endif // APPROX_FRONTEND_PASSES_H
