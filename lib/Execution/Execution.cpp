//===- Execution.cpp - run approx programs (JIT and AOT) ------------------===//
#include "approx/Execution/Execution.h"

#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Pipeline/Pipeline.h"
#include "approx/Dialect/Approx/IR/SourceCheck.h"
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
  approx::registerApproxDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  // Errors point at the user's source; a dump of the failing op in generic
  // form (MLIR's default note) only buries them.
  ctx->printOpOnDiagnostic(false);
  return ctx;
}

/// A module lowered to the LLVM dialect, with the context that owns it.
struct Lowered {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
};

/// Parses `source` and runs the approx pipeline down to the LLVM dialect.
/// Failures carry the diagnostics, located in `bufferName`.
llvm::Expected<Lowered> lower(StringRef source, StringRef bufferName,
                              const CompileOptions &options) {
  Lowered out{makeContext(), nullptr};
  std::string diag;
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
        llvm::SMLoc());
    llvm::raw_string_ostream os(diag);
    SourceMgrDiagnosticHandler handler(sourceMgr, out.ctx.get(), os);
    if (!approx::reportSourceProblems(sourceMgr, os))
      out.module = parseSourceFile<ModuleOp>(sourceMgr, out.ctx.get());
    // LLVM cannot select AMX tiles without optimization.
    DotProduct dot = options.dotProduct;
    if (options.optLevel == 0 && dot == DotProduct::Host)
      dot = DotProduct::Vectors;
    if (options.optLevel == 0 && dot == DotProduct::Amx)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          bufferName + ": error: AMX tiles (dot-product amx) need "
                       "optimization level 1 or more: LLVM cannot select "
                       "them at -O0\n");
    if (out.module) {
      PassManager pm(out.ctx.get());
      buildApproxPipeline(pm, {options.configPath, options.mode, options.exact,
                               PipelineStage::LLVM, dot});
      if (failed(pm.run(*out.module)))
        out.module = nullptr;
    }
  }
  if (out.module)
    return std::move(out);
  if (diag.empty())
    diag = (bufferName + ": compilation failed").str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), diag);
}

} // namespace

llvm::Expected<std::string> compileToLLVMDialect(StringRef source,
                                                 StringRef bufferName,
                                                 const CompileOptions &options) {
  llvm::Expected<Lowered> lowered = lower(source, bufferName, options);
  if (!lowered)
    return lowered.takeError();
  std::string out;
  llvm::raw_string_ostream os(out);
  lowered->module->print(os);
  return out;
}

llvm::Expected<std::string> compileToLLVMIR(StringRef source,
                                            StringRef bufferName,
                                            const CompileOptions &options) {
  llvm::Expected<Lowered> lowered = lower(source, bufferName, options);
  if (!lowered)
    return lowered.takeError();
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered->module, llvmCtx, bufferName);
  if (!llvmModule)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   bufferName + ": translation to LLVM IR "
                                                "failed");
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

  llvm::Expected<Lowered> lowered = lower(source, bufferName, options);
  if (!lowered)
    return lowered.takeError();
  auto impl = std::make_unique<Impl>();
  impl->ctx = std::move(lowered->ctx);

  SymbolBindings all = symbols;
  all.emplace_back(APPROX_RT_PARAM_FN,
                   reinterpret_cast<void *>(&approx_rt_param));
  all.emplace_back(APPROX_RT_RELEASE_FN,
                   reinterpret_cast<void *>(&approx_rt_release));
  all.emplace_back(APPROX_RT_ALLOC_FN,
                   reinterpret_cast<void *>(&_mlir_memref_to_llvm_alloc));
  all.emplace_back(
      APPROX_RT_ALIGNED_ALLOC_FN,
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_aligned_alloc));
  all.emplace_back(APPROX_RT_FREE_FN,
                   reinterpret_cast<void *>(&_mlir_memref_to_llvm_free));
  all.emplace_back(APPROX_RT_AMX_FN,
                   reinterpret_cast<void *>(&approx_rt_amx_permit));
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0,
                                /*targetMachine=*/nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  // LLVM's OpenMP runtime, which tensor code's parallel loops call.
  StringRef sharedLibs[] = {APPROX_OMP_LIBRARY};
  engineOptions.sharedLibPaths = sharedLibs;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  auto engine = ExecutionEngine::create(*lowered->module, engineOptions);
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
