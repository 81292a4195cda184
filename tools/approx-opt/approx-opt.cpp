//===- approx-opt.cpp - the approx pass driver ----------------------------===//
//
// mlir-opt with the approx dialect and passes: the seed's pipeline names
// (--emit-approx ... --finalize-approx), --approx-pipeline for all five and
// --approx-to-llvm to lower the result to the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Frontend/Passes.h"
#include "approx/Pipeline/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  approx::registerApproxPasses();
  approx::registerApproxPipelines();
  approx::registerFrontendPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<approx::ApproxDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "approx-opt: the ApproxMLIR pass driver\n", registry));
}
