//===- Execution.cpp - run approx programs (JIT and AOT) ------------------===//
#include "approx/Execution/Execution.h"

#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx_runtime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace approx {

namespace {

/// A context with every dialect and the LLVM IR translations registered.
std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<ApproxDialect>();
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  return ctx;
}

/// Parses and lowers `source` to the LLVM dialect; diagnostics go to `diag`.
OwningOpRef<ModuleOp> lowerToLLVMDialect(MLIRContext &ctx, StringRef source,
                                         StringRef bufferName,
                                         const CompileOptions &options,
                                         std::string &diag) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  llvm::raw_string_ostream os(diag);
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return nullptr;
  PassManager pm(&ctx);
  PipelineOptions opts{options.configPath, options.mode, options.exact};
  buildApproxToLLVMPipeline(pm, opts);
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

llvm::Error compileError(StringRef bufferName, const std::string &diag) {
  std::string msg = diag.empty() ? (bufferName + ": compilation failed").str()
                                 : diag;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

} // namespace

llvm::Expected<std::string> compileToLLVMDialect(StringRef source,
                                                 StringRef bufferName,
                                                 const CompileOptions &options) {
  auto ctx = makeContext();
  std::string diag;
  OwningOpRef<ModuleOp> module =
      lowerToLLVMDialect(*ctx, source, bufferName, options, diag);
  if (!module)
    return compileError(bufferName, diag);
  std::string out;
  llvm::raw_string_ostream os(out);
  module->print(os);
  return out;
}

llvm::Expected<std::string> compileToLLVMIR(StringRef source,
                                            StringRef bufferName,
                                            const CompileOptions &options) {
  auto ctx = makeContext();
  std::string diag;
  OwningOpRef<ModuleOp> module =
      lowerToLLVMDialect(*ctx, source, bufferName, options, diag);
  if (!module)
    return compileError(bufferName, diag);
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmCtx, bufferName);
  if (!llvmModule)
    return compileError(bufferName, diag);
  std::string out;
  llvm::raw_string_ostream os(out);
  llvmModule->print(os, nullptr);
  return out;
}

struct JitModule::Impl {
  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<ExecutionEngine> engine;
};

JitModule::JitModule(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::create(StringRef source, StringRef bufferName,
                  const CompileOptions &options, const SymbolBindings &symbols) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  auto impl = std::make_unique<Impl>();
  impl->ctx = makeContext();
  std::string diag;
  OwningOpRef<ModuleOp> module =
      lowerToLLVMDialect(*impl->ctx, source, bufferName, options, diag);
  if (!module)
    return compileError(bufferName, diag);

  SymbolBindings all = symbols;
  all.emplace_back("approx_rt_param", reinterpret_cast<void *>(&approx_rt_param));
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0,
                                /*targetMachine=*/nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return engine.takeError();
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (const auto &[name, addr] : all)
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(addr),
                             llvm::JITSymbolFlags::Exported};
    return map;
  });
  (*engine)->initialize();
  impl->engine = std::move(*engine);
  return std::unique_ptr<JitModule>(new JitModule(std::move(impl)));
}

llvm::Expected<void *> JitModule::lookup(StringRef name) const {
  return impl->engine->lookup(name);
}

} // namespace approx
