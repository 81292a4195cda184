//===- ApproxOps.h - approx dialect operations ------------------*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_IR_APPROXOPS_H
#define APPROX_DIALECT_APPROX_IR_APPROXOPS_H

#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "approx/Dialect/Approx/IR/ApproxOps.h.inc"

namespace approx {

/// The transform kind named `name` in an annotation; emits "unknown
/// transform type" on `op`, listing the kinds, when there is none.
mlir::FailureOr<TransformKind> parseTransformKind(mlir::Operation *op,
                                                 llvm::StringRef name);

/// "loop_perforate, ..., task_skipping": every kind, for error messages.
std::string transformKindList();

/// True for the kinds that act on the knob's outermost loop.
bool isLoopKind(TransformKind kind);

/// Fails (with an error on `op`) when a value is not a knob value of `kind`
/// (decode_quantize and precision_reduce take 0 to 3).
mlir::LogicalResult verifyKnobValues(mlir::Operation *op, TransformKind kind,
                                     llvm::ArrayRef<int32_t> values);

/// Checks the decision-tree rules of DESIGN §3 and reports the first
/// violation on `op`: |decisions| = |thresholds| + 1, thresholds strictly
/// ascending and inside [lowers, uppers], decisions non-negative and within
/// `decisionValues`.
mlir::LogicalResult verifyDecisionTreeParams(
    mlir::Operation *op, llvm::ArrayRef<int32_t> thresholds,
    llvm::ArrayRef<int32_t> decisions,
    std::optional<llvm::ArrayRef<int32_t>> lowers,
    std::optional<llvm::ArrayRef<int32_t>> uppers,
    std::optional<llvm::ArrayRef<int32_t>> decisionValues);

/// Checks a static transform's value and reports the first violation on
/// `op`: knob_val non-negative and among `decisionValues` (themselves
/// non-negative), every value a knob value of `kind`.
mlir::LogicalResult verifyStaticKnobParams(
    mlir::Operation *op, TransformKind kind, int64_t knobVal,
    std::optional<llvm::ArrayRef<int32_t>> decisionValues);

/// Name of the k-th approximate variant of `base`: `approx_<base>_<k>`.
std::string variantName(llvm::StringRef base, int64_t k);

/// Resolves a function symbol from `from`; emits a located error naming
/// `role` and returns null when it is missing or not a function.
mlir::FunctionOpInterface lookupFunction(mlir::SymbolTableCollection &tables,
                                         mlir::Operation *from,
                                         llvm::StringRef name,
                                         llvm::StringRef role);

/// Checks that `fn` has type (inputs) -> (results); emits an error on
/// `user` describing both types otherwise.
mlir::LogicalResult verifyFunctionType(mlir::Operation *user,
                                       mlir::FunctionOpInterface fn,
                                       mlir::TypeRange inputs,
                                       mlir::TypeRange results,
                                       llvm::StringRef role);

/// Checks that every non-zero value in `values` names a variant
/// `approx_<base>_<k>` with the type of `base`.
mlir::LogicalResult verifySubstituteVariants(
    mlir::Operation *user, mlir::SymbolTableCollection &tables,
    llvm::StringRef base, llvm::ArrayRef<int32_t> values);

/// Resolves negative state indices against `numArgs`; fails (with an error
/// on `op`) on an index out of range.
mlir::FailureOr<llvm::SmallVector<unsigned>>
resolveStateIndices(mlir::Operation *op, llvm::ArrayRef<int64_t> indices,
                    unsigned numArgs);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_IR_APPROXOPS_H
