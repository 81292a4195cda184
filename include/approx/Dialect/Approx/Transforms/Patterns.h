//===- Patterns.h - the rewrite patterns of transform-approx ----*- C++ -*-===//
//
// transform-approx is a thin driver over these patterns: one lowers
// decision trees, one per transform kind applies the transform, one lowers
// safety contracts. Adding a transform kind = one enum case (ApproxEnums.td)
// + one pattern here + its tests. lower-approx-runtime's pattern lowers
// approx.runtime_param to the runtime's ABI (approx_runtime.h).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_DIALECT_APPROX_TRANSFORMS_PATTERNS_H
#define APPROX_DIALECT_APPROX_TRANSFORMS_PATTERNS_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace mlir {
class RewritePatternSet;
class SymbolTableCollection;
} // namespace mlir

namespace approx {

/// approx.decision_tree -> arith comparisons + scf.index_switch yielding the
/// knob value, and an approx.transform driven by it.
void populateDecisionTreePatterns(mlir::RewritePatternSet &patterns);

/// One pattern per transform kind, applying an approx.transform to the rest
/// of its knob (and erasing it).
void populateLoopTransformPatterns(mlir::RewritePatternSet &patterns);
/// `symbols` caches the module's symbol table across knobs (the patterns
/// add no symbols); it must outlive the patterns.
void populateFuncSubstitutePatterns(mlir::RewritePatternSet &patterns,
                                    mlir::SymbolTableCollection &symbols);
void populateTaskSkippingPatterns(mlir::RewritePatternSet &patterns);
/// decode_quantize and precision_reduce on linalg / tensor code.
void populateMLTransformPatterns(mlir::RewritePatternSet &patterns);

/// All of the above.
void populateTransformPatterns(mlir::RewritePatternSet &patterns,
                               mlir::SymbolTableCollection &symbols);

/// approx.safety_contract -> checker call + scf.if + recover call, once the
/// knob's transform is applied.
void populateSafetyContractPatterns(mlir::RewritePatternSet &patterns);

/// A parameter name read by the module (one cell each): what the module's
/// constructor registers.
struct RuntimeParamRegistration {
  std::string name;
  int32_t dflt;
  mlir::Location loc;
};

/// approx.runtime_param -> one load of the module's cell for its name. Cells
/// are numbered in the order the patterns first meet each name, appended to
/// `registrations`, from which the caller defines the cells, the
/// constructor that registers them and the destructor that releases them.
void populateRuntimeParamLoweringPatterns(
    mlir::RewritePatternSet &patterns,
    llvm::SmallVectorImpl<RuntimeParamRegistration> &registrations);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_TRANSFORMS_PATTERNS_H
