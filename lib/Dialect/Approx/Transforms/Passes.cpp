//===- Passes.cpp - approx pipelines and registration ---------------------===//
#include "approx/Dialect/Approx/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace approx {

void buildApproxPipeline(OpPassManager &pm, const PipelineOptions &opts) {
  pm.addPass(createEmitApprox());
  pm.addPass(createEmitManagement());
  ConfigApproxOptions config;
  config.configPath = opts.configPath;
  config.mode = opts.mode;
  config.exact = opts.exact;
  pm.addPass(createConfigApprox(config));
  pm.addPass(createTransformApprox());
  pm.addPass(createFinalizeApprox());
}

void buildLowerToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void buildApproxToLLVMPipeline(OpPassManager &pm, const PipelineOptions &opts) {
  buildApproxPipeline(pm, opts);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  buildLowerToLLVMPipeline(pm);
}

namespace {
struct PipelineCLOptions : public PassPipelineOptions<PipelineCLOptions> {
  Option<std::string> config{*this, "config",
                             llvm::cl::desc("JSON configuration file")};
  Option<std::string> mode{
      *this, "mode", llvm::cl::desc("baked (constants) or runtime (knob table)"),
      llvm::cl::init("baked")};
  Option<bool> exact{*this, "exact",
                     llvm::cl::desc("Build every knob exact (value 0)"),
                     llvm::cl::init(false)};

  PipelineOptions get() const { return {config, mode, exact}; }
};
} // namespace

void registerApproxPassesAndPipelines() {
  registerApproxPasses();
  PassPipelineRegistration<PipelineCLOptions>(
      "approx-pipeline",
      "emit-approx, emit-management, config-approx, transform-approx, "
      "finalize-approx",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildApproxPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "approx-to-llvm",
      "approx-pipeline, canonicalize, cse, then lowering to the LLVM dialect",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildApproxToLLVMPipeline(pm, o.get());
      });
}

} // namespace approx
