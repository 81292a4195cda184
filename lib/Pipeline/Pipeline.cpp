//===- Pipeline.cpp - the one approx compilation pipeline -----------------===//
#include "approx/Pipeline/Pipeline.h"
#include "LowerTensorCode.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Frontend/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace approx {

void buildApproxPipeline(OpPassManager &pm, const PipelineOptions &opts) {
  // A transform script first (DESIGN §17). Its approx ops rewrite in place
  // (later script ops see their result), except where a build must set
  // them itself: a runtime table reads them, an exact build zeroes them.
  ApplyTransformScriptOptions script;
  script.knobs = opts.mode == "runtime" || opts.exact;
  script.configPath = opts.configPath;
  pm.addPass(createApplyTransformScript(script));
  pm.addPass(createEmitApprox());
  pm.addPass(createEmitManagement());
  ConfigApproxOptions config;
  config.configPath = opts.configPath;
  config.mode = opts.mode;
  config.exact = opts.exact;
  config.otherUnits = opts.configOtherUnits;
  pm.addPass(createConfigApprox(config));
  pm.addPass(createCloneExactApprox());
  pm.addPass(createTransformApprox());
  pm.addPass(createFinalizeApprox());
  pm.addPass(createDispatchExactApprox());
  pm.addPass(createLowerApproxRuntime());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (opts.stage == PipelineStage::Approx)
    return;
  pm.addPass(createLowerTensorCodePass(opts.dotProduct));
  pm.addPass(createLowerNswFor());
  pm.addPass(createSCFToControlFlowPass());
  // Buffers through the runtime's cache (approx_runtime.h), not malloc.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  // Math ops LLVM has intrinsics for become intrinsics; the rest (erf,
  // erfc, ...) calls of libm.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
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
  Option<DotProduct> dotProduct{
      *this, "dot-product", llvm::cl::desc(kDotProductDescription),
      llvm::cl::init(DotProduct::Host), dotProductValues()};

  PipelineOptions get(PipelineStage stage) const {
    return {config, mode, exact, stage, dotProduct};
  }
};
} // namespace

void registerApproxPipelines() {
  PassRegistration<Pass>([] { return createPolynomialErfPass(); });
  PassRegistration<Pass>(
      [] { return createLowerTensorCodePass(DotProduct::Host); });
  PassRegistration<Pass>([] { return createIndexSwitchToIfPass(); });
  PassPipelineRegistration<PipelineCLOptions>(
      "approx-pipeline",
      "emit-approx, emit-management, config-approx, clone-exact-approx, "
      "transform-approx, finalize-approx, dispatch-exact-approx, "
      "lower-approx-runtime, canonicalize, cse",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildApproxPipeline(pm, o.get(PipelineStage::Approx));
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "approx-to-llvm",
      "approx-pipeline, then lowering to the LLVM dialect",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildApproxPipeline(pm, o.get(PipelineStage::LLVM));
      });
}

} // namespace approx
