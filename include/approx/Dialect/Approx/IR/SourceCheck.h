//===- SourceCheck.h - checks of MLIR text before it is parsed --*- C++ -*-===//
//
// What every tool that reads MLIR text checks before handing it to the
// parser: nesting within the tools' limit (Support/NestingLimit.h), and
// annotation ops in MLIR's generic form naming only properties they have.
// MLIR's generic parser silently drops unknown keys of a `<{...}>`
// dictionary (its custom form rejects them), so `thresholds_lower` for
// `thresholds_lowers` would shrink the tuning space without a word.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_DIALECT_APPROX_IR_SOURCECHECK_H
#define APPROX_DIALECT_APPROX_IR_SOURCECHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace approx {

/// Prints a located error for each key of a generic-form annotation op's
/// property dictionary that the op does not have; true if any.
bool reportUnknownAnnotationKeys(const llvm::SourceMgr &sourceMgr,
                                 llvm::raw_ostream &os);

/// Prints a located error for each custom-form `linalg.generic` whose
/// iterator_types holds anything but strings; true if any. MLIR 22's
/// GenericOp::parse reads every element as a string attribute unchecked
/// (getAsValueRange<StringAttr>), so `[#approx.kind<...>]` or `[0]` reads
/// memory out of bounds (found by fuzz/pipeline_fuzz).
bool reportNonStringIteratorTypes(const llvm::SourceMgr &sourceMgr,
                                  llvm::raw_ostream &os);

/// The checks above and the nesting limit, on the main buffer of
/// `sourceMgr`; true (with located errors on `os`) when the text must not
/// be parsed.
bool reportSourceProblems(const llvm::SourceMgr &sourceMgr,
                          llvm::raw_ostream &os);

/// "unknown attribute 'x' (did you mean 'y'?)" for a name not among
/// `known` (the closest one within 3 edits, else a general hint).
std::string unknownAttributeMessage(llvm::StringRef name,
                                    llvm::ArrayRef<llvm::StringRef> known);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_IR_SOURCECHECK_H
