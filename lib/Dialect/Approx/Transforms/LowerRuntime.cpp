//===- LowerRuntime.cpp - approx.runtime_param -> the runtime's ABI -------===//
//
// The one place that knows how generated code talks to the approx runtime;
// the names and the table layout come from the runtime's public header.
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Dialect/Approx/Transforms/Patterns.h"
#include "approx_runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace approx {
#define GEN_PASS_DEF_LOWERAPPROXRUNTIME
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

/// The word of the parameter's slot in the exported table (one relaxed
/// load); on the slot's first read (ready bit clear) a call of
/// approx_rt_param registers it, which reads APPROX_CONFIG.
struct LowerRuntimeParam : OpRewritePattern<RuntimeParamOp> {
  LowerRuntimeParam(MLIRContext *ctx, int *nextSlot)
      : OpRewritePattern(ctx), nextSlot(nextSlot) {}

  LogicalResult matchAndRewrite(RuntimeParamOp op,
                                PatternRewriter &b) const override {
    int32_t slot = (*nextSlot)++;
    Location loc = op.getLoc();
    b.setInsertionPoint(op);
    auto i32 = [&](OpBuilder &ib, int64_t v) -> Value {
      return arith::ConstantIntOp::create(ib, loc, ib.getI32Type(), v);
    };
    auto i64 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
    };
    std::string text = op.getName().str();
    text.push_back('\0');
    Value name = LLVM::createGlobalString(
        loc, b, "__approx_param_name_" + std::to_string(slot), text,
        LLVM::Linkage::Internal);
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value table = LLVM::AddressOfOp::create(b, loc, ptr, APPROX_RT_TABLE);
    Value entry = LLVM::GEPOp::create(b, loc, ptr, b.getI64Type(), table,
                                      ArrayRef<LLVM::GEPArg>{slot});
    Value word = LLVM::LoadOp::create(b, loc, b.getI64Type(), entry,
                                      /*alignment=*/8, false, false, false,
                                      false, LLVM::AtomicOrdering::monotonic);
    Value ready = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::ShRUIOp::create(b, loc, word, i64(APPROX_RT_READY_SHIFT)),
        i64(0));
    int32_t dflt = int32_t(op.getDefaultValue());
    b.replaceOpWithNewOp<scf::IfOp>(
        op, ready,
        [&](OpBuilder &t, Location l) {
          Value v = arith::TruncIOp::create(t, l, t.getI32Type(), word);
          scf::YieldOp::create(t, l, v);
        },
        [&](OpBuilder &e, Location l) {
          auto call = func::CallOp::create(
              e, l, APPROX_RT_PARAM_FN, TypeRange(e.getI32Type()),
              ValueRange{entry, i32(e, dflt), name});
          scf::YieldOp::create(e, l, call.getResult(0));
        });
    return success();
  }

  int *nextSlot;
};

/// Declares approx_rt_param and defines the module's table of `slots`
/// words; fails on a clash with a user symbol of the same name.
LogicalResult declareRuntime(ModuleOp module, int64_t slots) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto type = FunctionType::get(ctx, {ptr, i32, ptr}, {i32});
  if (Operation *existing =
          SymbolTable::lookupSymbolIn(module, APPROX_RT_PARAM_FN)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (!fn || fn.getFunctionType() != type)
      return existing->emitOpError("symbol '")
             << APPROX_RT_PARAM_FN
             << "' is reserved for the approx runtime and must have type "
             << type;
    return success();
  }
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), APPROX_RT_PARAM_FN, type);
  fn.setPrivate();
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, APPROX_RT_TABLE))
    return existing->emitOpError("symbol '")
           << APPROX_RT_TABLE << "' is reserved for the approx runtime";
  LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMArrayType::get(b.getI64Type(), slots),
      /*isConstant=*/false, LLVM::Linkage::Internal, APPROX_RT_TABLE,
      LLVM::ZeroAttr::get(ctx));
  return success();
}

struct LowerApproxRuntimePass
    : approx::impl::LowerApproxRuntimeBase<LowerApproxRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t count = 0;
    module.walk([&](RuntimeParamOp) { ++count; });
    if (!count)
      return;
    if (failed(declareRuntime(module, count)))
      return signalPassFailure();
    int nextSlot = 0;
    RewritePatternSet patterns(&getContext());
    populateRuntimeParamLoweringPatterns(patterns, &nextSlot);
    walkAndApplyPatterns(module, std::move(patterns));
    if (module.walk([](RuntimeParamOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void approx::populateRuntimeParamLoweringPatterns(RewritePatternSet &patterns,
                                                  int *nextSlot) {
  patterns.add<LowerRuntimeParam>(patterns.getContext(), nextSlot);
}
