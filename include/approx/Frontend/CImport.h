//===- CImport.h - C/C++ source to MLIR -------------------------*- C++ -*-===//
#ifndef APPROX_FRONTEND_CIMPORT_H
#define APPROX_FRONTEND_CIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace approx {

struct CImportOptions {
  /// Driver-style arguments for Clang (-I, -D, -std=, -x c++, ...).
  std::vector<std::string> clangArgs;
  /// The clang the arguments are interpreted for (header search, resource
  /// directory).
  std::string clangPath;
  /// Attach the file's `// @approx:` annotations as approx.util.annotation
  /// ops.
  bool annotate = true;
  /// Accept annotation values outside their own bounds (a threshold outside
  /// [thresholds_lower, thresholds_upper], a decision or knob_val missing
  /// from decision_values) with a located warning each, widening the bounds
  /// to include them (Dialect/Approx/IR/WidenBounds.h); an error otherwise.
  bool widenBounds = false;
};

/// Compiles one C or C++ file with Clang in process to LLVM IR (the -O1
/// front end without LLVM passes, then mem2reg and SROA, which keep loops
/// top-tested), imports it
/// into MLIR, raises it to func/cf/arith, lifts its control flow to scf and
/// uplifts counted loops to scf.for. Clang diagnostics go to stderr;
/// annotation errors are emitted on `ctx` at `file:line:col`. Returns null on
/// any error.
mlir::OwningOpRef<mlir::ModuleOp> importCSource(mlir::MLIRContext &ctx,
                                                llvm::StringRef path,
                                                const CImportOptions &options);

/// Erases the lifetime markers (llvm.intr.lifetime.start/end) whose pointer
/// is not an llvm.alloca. LLVM's verifier accepts markers on allocas only,
/// and canonicalisation's block merging can pass the allocas of two C++
/// cleanup paths (two std::string temporaries) to one block as an argument;
/// a marker is only a hint for stack colouring. Call before translating to
/// LLVM IR.
void dropStrayLifetimeMarkers(mlir::ModuleOp module);

} // namespace approx

#endif // APPROX_FRONTEND_CIMPORT_H
