//===- Registration.cpp - what a tool parsing approx IR registers ---------===//
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/TransformOps/ApproxTransformOps.h"

#include "mlir/IR/DialectRegistry.h"

void approx::registerApproxDialects(mlir::DialectRegistry &registry) {
  registry.insert<ApproxDialect>();
  registerTransformDialectExtension(registry);
}
