//===- Passes.h - approx-opt passes -----------------------------*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_TRANSFORMS_PASSES_H
#define APPROX_DIALECT_APPROX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include <string>

namespace mlir {
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
} // namespace mlir

namespace approx {

#define GEN_PASS_DECL
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"

} // namespace approx

#endif // APPROX_DIALECT_APPROX_TRANSFORMS_PASSES_H
