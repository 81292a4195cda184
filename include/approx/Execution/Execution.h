//===- Execution.h - run approx programs (JIT and AOT) ----------*- C++ -*-===//
//
// Light header: no MLIR dialect headers, so tools and tests that only run
// programs compile fast.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_EXECUTION_EXECUTION_H
#define APPROX_EXECUTION_EXECUTION_H

#include "approx/Pipeline/Pipeline.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace approx {

/// How an annotated program is compiled.
struct CompileOptions {
  /// JSON configuration (seed parameter names); empty: annotation values.
  std::string configPath;
  /// "baked" (constants) or "runtime" (knob table read at run time).
  std::string mode = "baked";
  /// Every knob exact (value 0).
  bool exact = false;
  /// LLVM optimisation level for the generated code.
  unsigned optLevel = 3;
  /// How int8 and bf16 matmuls become native code.
  DotProduct dotProduct = DotProduct::Host;
};

/// Symbols the program calls but does not define (state functions,
/// approximate variants, checkers written in C/C++), bound by name.
using SymbolBindings = std::vector<std::pair<std::string, void *>>;

/// Runs the approx pipeline on MLIR source and translates the result to
/// LLVM IR text. Errors carry the diagnostics with `bufferName:line:col`.
llvm::Expected<std::string> compileToLLVMIR(llvm::StringRef source,
                                            llvm::StringRef bufferName,
                                            const CompileOptions &options);

/// Same, stopping at the LLVM dialect (MLIR text).
llvm::Expected<std::string> compileToLLVMDialect(llvm::StringRef source,
                                                 llvm::StringRef bufferName,
                                                 const CompileOptions &options);

/// Typed access to the functions of compiled code, for a class with
/// `llvm::Expected<void *> lookup(llvm::StringRef name) const`:
/// `auto f = jit->function<int32_t(int32_t)>("f");`.
template <typename Derived> class TypedLookup {
public:
  template <typename Signature>
  llvm::Expected<Signature *> function(llvm::StringRef name) const {
    llvm::Expected<void *> addr = static_cast<const Derived *>(this)->lookup(name);
    if (!addr)
      return addr.takeError();
    return reinterpret_cast<Signature *>(*addr);
  }
};

/// An annotated MLIR program compiled in process with mlir::ExecutionEngine.
/// The approx runtime's symbols are bound automatically.
class JitModule : public TypedLookup<JitModule> {
public:
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(llvm::StringRef source, llvm::StringRef bufferName,
         const CompileOptions &options, const SymbolBindings &symbols = {});
  ~JitModule();

  /// Address of a function of the program (its C ABI symbol); typed:
  /// `function<Signature>(name)` (TypedLookup).
  llvm::Expected<void *> lookup(llvm::StringRef name) const;

private:
  struct Impl;
  explicit JitModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace approx

#endif // APPROX_EXECUTION_EXECUTION_H
