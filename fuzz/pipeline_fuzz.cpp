//===- pipeline_fuzz.cpp - libFuzzer target: approx-opt on MLIR text ------===//
// Any text as approx-opt's input: parsed (under the nesting limit), verified
// and run through the approx pipeline to the approx stage; errors are
// diagnostics, never crashes (a crash inside MLIR's parsers is turned into
// an error as the tools do, CrashGuard.h).
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Pipeline/Pipeline.h"
#include "approx/Support/CrashGuard.h"
#include "approx/Dialect/Approx/IR/SourceCheck.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

static mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    approx::registerApproxDialects(registry);
    auto *c = new mlir::MLIRContext(registry);
    c->loadAllAvailableDialects();
    c->disableMultithreading();
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = context();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz"),
      llvm::SMLoc());
  if (approx::reportSourceProblems(sourceMgr, llvm::nulls()))
    return 0;
  mlir::ScopedDiagnosticHandler quiet(&ctx, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  // Parsing is guarded as in the tools: MLIR 22's own parsers crash on some
  // invalid input (see CrashGuard.h); that is reported, not fuzzed again.
  // Verification and the approx pipeline (our code) run unguarded.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  if (!approx::runGuarded("pipeline_fuzz", "parsing", [&] {
        module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
      })) {
    (void)module.release(); // half-built IR: leak it, do not touch it
    return 0;
  }
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&ctx);
  approx::buildApproxPipeline(pm, {"", "baked", false,
                                   approx::PipelineStage::Approx});
  (void)pm.run(*module);
  return 0;
}
