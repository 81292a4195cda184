//===- SourceNames.h - the source names knobs are named after ---*- C++ -*-===//
//
// Knobs and their tunable parameters are named after the function that
// carries them (ParamNames.h). A C++ function's symbol is mangled
// (`_Z4cndfd`); approx-cc records each annotated C++ function's source name,
// qualified (`cndf`, `geo::Shape::area`), in one dictionary attribute on
// the module, `approx.source_names` (symbol -> source name), and the
// knobs are named after it. Overloads whose qualified names clash keep
// their symbols. Without an entry (C, MLIR) the symbol is the name.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_DIALECT_APPROX_IR_SOURCENAMES_H
#define APPROX_DIALECT_APPROX_IR_SOURCENAMES_H

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>

namespace approx {

inline constexpr llvm::StringLiteral kSourceNamesAttr = "approx.source_names";

/// The name the knobs of function `symbol` in `module` are named after.
std::string knobFunctionName(mlir::ModuleOp module, llvm::StringRef symbol);

/// Records `names` (symbol -> qualified source name, the annotated C++
/// functions) on `module`: each symbol whose source name no other symbol
/// of `names` shares. `pieces` (symbol -> symbol of the function it was cut
/// from: a loop moved out of a function with exception handling) are named
/// as their functions are.
void recordSourceNames(mlir::ModuleOp module,
                       const std::map<std::string, std::string> &names,
                       const std::map<std::string, std::string> &pieces = {});

} // namespace approx

#endif // APPROX_DIALECT_APPROX_IR_SOURCENAMES_H
