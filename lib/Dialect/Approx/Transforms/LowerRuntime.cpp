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

/// The parameter's slot number in the module's own array (one acquire
/// load); once known, its value in the runtime's table (one more load);
/// while unknown (-1), a call of approx_rt_param registers the name, which
/// reads APPROX_CONFIG, and fills in the slot number.
struct LowerRuntimeParam : OpRewritePattern<RuntimeParamOp> {
  LowerRuntimeParam(MLIRContext *ctx, int *nextSlot)
      : OpRewritePattern(ctx), nextSlot(nextSlot) {}

  LogicalResult matchAndRewrite(RuntimeParamOp op,
                                PatternRewriter &b) const override {
    int32_t index = (*nextSlot)++;
    Location loc = op.getLoc();
    b.setInsertionPoint(op);
    auto i32 = [&](OpBuilder &ib, int64_t v) -> Value {
      return arith::ConstantIntOp::create(ib, loc, ib.getI32Type(), v);
    };
    std::string text = op.getName().str();
    text.push_back('\0');
    Value name = LLVM::createGlobalString(
        loc, b, "__approx_param_name_" + std::to_string(index), text,
        LLVM::Linkage::Internal);
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value slots = LLVM::AddressOfOp::create(b, loc, ptr, APPROX_RT_SLOTS);
    Value ref = LLVM::GEPOp::create(b, loc, ptr, b.getI32Type(), slots,
                                    ArrayRef<LLVM::GEPArg>{index});
    Value slot = LLVM::LoadOp::create(b, loc, b.getI32Type(), ref,
                                      /*alignment=*/4, false, false, false,
                                      false, LLVM::AtomicOrdering::acquire);
    Value known =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, slot, i32(b, 0));
    int32_t dflt = int32_t(op.getDefaultValue());
    b.replaceOpWithNewOp<scf::IfOp>(
        op, known,
        [&](OpBuilder &t, Location l) {
          Value table = LLVM::AddressOfOp::create(t, l, ptr, APPROX_RT_TABLE);
          Value entry = LLVM::GEPOp::create(t, l, ptr, t.getI32Type(), table,
                                            ArrayRef<LLVM::GEPArg>{slot});
          Value v = LLVM::LoadOp::create(t, l, t.getI32Type(), entry,
                                         /*alignment=*/4, false, false, false,
                                         false, LLVM::AtomicOrdering::monotonic);
          scf::YieldOp::create(t, l, v);
        },
        [&](OpBuilder &e, Location l) {
          auto call = func::CallOp::create(
              e, l, APPROX_RT_PARAM_FN, TypeRange(e.getI32Type()),
              ValueRange{ref, i32(e, dflt), name});
          scf::YieldOp::create(e, l, call.getResult(0));
        });
    return success();
  }

  int *nextSlot;
};

/// Declares approx_rt_param and the runtime's table, and defines the
/// module's array of `count` slot numbers (all -1); fails on a clash with a
/// user symbol of the same name.
LogicalResult declareRuntime(ModuleOp module, int64_t count) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto type = FunctionType::get(ctx, {ptr, i32, ptr}, {i32});
  for (StringRef reserved : {APPROX_RT_TABLE, APPROX_RT_SLOTS})
    if (Operation *existing = SymbolTable::lookupSymbolIn(module, reserved))
      return existing->emitOpError("symbol '")
             << reserved << "' is reserved for the approx runtime";
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  if (Operation *existing =
          SymbolTable::lookupSymbolIn(module, APPROX_RT_PARAM_FN)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (!fn || fn.getFunctionType() != type)
      return existing->emitOpError("symbol '")
             << APPROX_RT_PARAM_FN
             << "' is reserved for the approx runtime and must have type "
             << type;
  } else {
    auto fn =
        func::FuncOp::create(b, module.getLoc(), APPROX_RT_PARAM_FN, type);
    fn.setPrivate();
  }
  LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMArrayType::get(i32, APPROX_RT_TABLE_SLOTS),
      /*isConstant=*/false, LLVM::Linkage::External, APPROX_RT_TABLE,
      Attribute());
  auto slotsType = RankedTensorType::get({count}, i32);
  LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMArrayType::get(i32, count),
      /*isConstant=*/false, LLVM::Linkage::Internal, APPROX_RT_SLOTS,
      DenseElementsAttr::get(slotsType, APInt(32, -1, /*isSigned=*/true)));
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
