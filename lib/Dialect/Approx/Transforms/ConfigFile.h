//===- ConfigFile.h - a configuration file read for the passes --*- C++ -*-===//
// Private to lib/Dialect/Approx/Transforms: config-approx's and
// apply-transform-script's reader of one JSON configuration.
#ifndef APPROX_LIB_TRANSFORMS_CONFIGFILE_H
#define APPROX_LIB_TRANSFORMS_CONFIGFILE_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace approx {

/// A parsed configuration file: parameter name -> value, with the text kept
/// to locate keys in diagnostics.
struct ConfigFile {
  std::string path;
  std::string text;
  llvm::StringMap<int64_t> values;

  mlir::Location locate(mlir::MLIRContext *ctx, llvm::StringRef key) const;
};

/// The configuration at `path`: a JSON object of 32-bit integers; located
/// errors otherwise.
mlir::FailureOr<ConfigFile> readConfig(mlir::MLIRContext *ctx,
                                       llvm::StringRef path);

} // namespace approx

#endif // APPROX_LIB_TRANSFORMS_CONFIGFILE_H
