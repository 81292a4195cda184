//===- Pipeline.cpp - the one approx compilation pipeline -----------------===//
#include "approx/Pipeline/Pipeline.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Frontend/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace approx {

namespace {

/// Tensor code (ML functions): buffers with identity layouts at function
/// boundaries, ownership-based deallocation, linalg to loops. Runs only on
/// modules with tensors: C programs keep their LLVM memory ops, which the
/// deallocation analysis does not accept.
struct LowerTensorCodePass
    : PassWrapper<LowerTensorCodePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerTensorCodePass)

  LowerTensorCodePass()
      : tensorPipeline(ModuleOp::getOperationName()),
        loopPipeline(ModuleOp::getOperationName()) {
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    bufferize.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    tensorPipeline.addPass(bufferization::createOneShotBufferizePass(bufferize));
    bufferization::buildBufferDeallocationPipeline(tensorPipeline);
    tensorPipeline.addPass(createConvertBufferizationToMemRefPass());
    loopPipeline.addPass(createConvertLinalgToLoopsPass());
    loopPipeline.addPass(memref::createExpandStridedMetadataPass());
    loopPipeline.addPass(createLowerAffinePass());
    // bf16 conversions as integer ops: no libgcc/compiler-rt helper needed.
    arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = true;
    loopPipeline.addPass(arith::createArithExpandOpsPass(expand));
  }
  LowerTensorCodePass(const LowerTensorCodePass &other)
      : PassWrapper(other), tensorPipeline(other.tensorPipeline),
        loopPipeline(other.loopPipeline) {}

  StringRef getArgument() const final { return "approx-lower-tensor-code"; }
  StringRef getDescription() const final {
    return "Bufferize and lower linalg/tensor code to loops (modules with "
           "tensors only)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    tensorPipeline.getDependentDialects(registry);
    loopPipeline.getDependentDialects(registry);
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    bool tensors = getOperation()
                       .walk([](Operation *op) {
                         auto isTensor = [](Type t) {
                           return isa<TensorType>(t);
                         };
                         if (llvm::any_of(op->getResultTypes(), isTensor) ||
                             llvm::any_of(op->getOperandTypes(), isTensor))
                           return WalkResult::interrupt();
                         if (auto fn = dyn_cast<FunctionOpInterface>(op))
                           if (llvm::any_of(fn.getArgumentTypes(), isTensor) ||
                               llvm::any_of(fn.getResultTypes(), isTensor))
                             return WalkResult::interrupt();
                         return WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!tensors)
      return;
    if (failed(interchangeContractions()))
      return signalPassFailure();
    if (failed(runPipeline(tensorPipeline, getOperation())))
      return signalPassFailure();
    // Buffer copies become loops like the rest (memref.copy of a strided
    // buffer would call MLIR's runtime library otherwise).
    getOperation().walk([](memref::CopyOp copy) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
    if (failed(runPipeline(loopPipeline, getOperation())))
      signalPassFailure();
  }

  /// Matmuls loop as (batch,) i, k, j instead of (batch,) i, j, k: the
  /// innermost loop then runs along rows of B and C, which LLVM vectorizes
  /// (a reduction innermost would need reassociating float additions).
  LogicalResult interchangeContractions() {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) &&
          op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      unsigned loops = op.getNumLoops();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        return op->emitOpError("cannot generalize for lowering");
      SmallVector<unsigned> order;
      for (unsigned d = 0; d + 2 < loops; ++d)
        order.push_back(d);
      order.append({loops - 1, loops - 2}); // k before j
      if (failed(linalg::interchangeGenericOp(rewriter, *generic, order)))
        return generic->emitOpError("cannot interchange for lowering");
    }
    return success();
  }

  OpPassManager tensorPipeline, loopPipeline;
};

} // namespace

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
  pm.addPass(createLowerApproxRuntime());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (opts.stage == PipelineStage::Approx)
    return;
  pm.addPass(std::make_unique<LowerTensorCodePass>());
  pm.addPass(createLowerNswFor());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Math ops LLVM has intrinsics for become intrinsics; the rest (erf,
  // erfc, ...) calls of libm.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
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

  PipelineOptions get(PipelineStage stage) const {
    return {config, mode, exact, stage};
  }
};
} // namespace

void registerApproxPipelines() {
  PassPipelineRegistration<PipelineCLOptions>(
      "approx-pipeline",
      "emit-approx, emit-management, config-approx, transform-approx, "
      "finalize-approx, lower-approx-runtime, canonicalize, cse",
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
