//===- Registration.h - what a tool parsing approx IR registers -*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_REGISTRATION_H
#define APPROX_DIALECT_APPROX_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace approx {

/// The approx dialect and its Transform-dialect extension (the
/// transform.approx.* ops): every tool that parses approx IR calls this,
/// next to upstream's registerAllDialects / registerAllExtensions.
void registerApproxDialects(mlir::DialectRegistry &registry);

} // namespace approx

#endif // APPROX_DIALECT_APPROX_REGISTRATION_H
