//===- approx-opt.cpp - the approx pass driver ----------------------------===//
//
// mlir-opt with the approx dialect and passes: the seed's pipeline names
// (--emit-approx ... --finalize-approx), --approx-pipeline for all five and
// --approx-to-llvm to lower the result to the LLVM dialect. Unlike mlir-opt,
// `-o` never names the input and the output replaces an existing file only
// once the run has succeeded.
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Frontend/Passes.h"
#include "approx/Pipeline/Pipeline.h"
#include "approx/Support/CrashGuard.h"
#include "approx/Dialect/Approx/IR/SourceCheck.h"
#include "llvm/Support/SourceMgr.h"
#include "../common/InputFile.h"
#include "../common/OutputFile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAllPasses();
  approx::registerApproxPasses();
  approx::registerApproxPipelines();
  approx::registerFrontendPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  approx::registerApproxDialects(registry);
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "approx-opt: the ApproxMLIR pass driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""), registry, config));

  if (approx::tools::checkNotAnInput("approx-opt", output, {input}))
    return 1;
  std::unique_ptr<llvm::MemoryBuffer> file =
      approx::tools::readInput("approx-opt", input);
  if (!file)
    return 1;
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(), false),
        llvm::SMLoc());
    if (approx::reportSourceProblems(sourceMgr, llvm::errs()))
      return 1;
  }
  return approx::tools::writeAtomically(
      "approx-opt", output, [&](llvm::raw_ostream &os) {
        bool ok = false;
        bool returned = approx::runGuarded("approx-opt", "processing '" + input + "'", [&] {
          ok = mlir::succeeded(
              mlir::MlirOptMain(os, std::move(file), registry, config));
        });
        return returned && ok;
      });
}
