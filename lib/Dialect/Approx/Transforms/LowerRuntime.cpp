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

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace approx {
#define GEN_PASS_DEF_LOWERAPPROXRUNTIME
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

/// The alias tag of parameter reads: a scalar type of its own under C and
/// C++'s type-based alias root (the one clang's metadata uses), so a read
/// aliases none of the program's typed loads and stores and the optimiser
/// may hoist it out of a loop that writes only those.
ArrayAttr parameterAliasTag(MLIRContext *ctx) {
  auto root =
      LLVM::TBAARootAttr::get(ctx, StringAttr::get(ctx, "Simple C/C++ TBAA"));
  auto anyType = LLVM::TBAATypeDescriptorAttr::get(
      ctx, "omnipotent char", {LLVM::TBAAMemberAttr::get(root, 0)});
  auto paramType = LLVM::TBAATypeDescriptorAttr::get(
      ctx, "approx runtime parameter", {LLVM::TBAAMemberAttr::get(anyType, 0)});
  return ArrayAttr::get(ctx, {LLVM::TBAATagAttr::get(paramType, paramType, 0)});
}

/// An unordered (racy but defined), alias-tagged load of an i32.
Value loadParameterWord(OpBuilder &b, Location loc, Value address) {
  auto load = LLVM::LoadOp::create(b, loc, b.getI32Type(), address,
                                   /*alignment=*/4, false, false, false, false,
                                   LLVM::AtomicOrdering::unordered);
  load.setTBAATags(parameterAliasTag(b.getContext()));
  return load;
}

/// A read: the parameter's slot number from the module's own array, then
/// its value in the runtime's table. The module's constructor has filled
/// in every slot number before any code of the module runs.
struct LowerRuntimeParam : OpRewritePattern<RuntimeParamOp> {
  LowerRuntimeParam(MLIRContext *ctx,
                    SmallVectorImpl<RuntimeParamRegistration> *registrations)
      : OpRewritePattern(ctx), registrations(registrations) {}

  LogicalResult matchAndRewrite(RuntimeParamOp op,
                                PatternRewriter &b) const override {
    int32_t index = int32_t(registrations->size());
    registrations->push_back({op.getName().str(),
                              int32_t(op.getDefaultValue()), op.getLoc()});
    Location loc = op.getLoc();
    b.setInsertionPoint(op);
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value slots = LLVM::AddressOfOp::create(b, loc, ptr, APPROX_RT_SLOTS);
    Value ref = LLVM::GEPOp::create(b, loc, ptr, b.getI32Type(), slots,
                                    ArrayRef<LLVM::GEPArg>{index});
    Value slot = loadParameterWord(b, loc, ref);
    Value table = LLVM::AddressOfOp::create(b, loc, ptr, APPROX_RT_TABLE);
    Value entry = LLVM::GEPOp::create(b, loc, ptr, b.getI32Type(), table,
                                      ArrayRef<LLVM::GEPArg>{slot});
    b.replaceOp(op, loadParameterWord(b, loc, entry));
    return success();
  }

  SmallVectorImpl<RuntimeParamRegistration> *registrations;
};

/// Declares approx_rt_param and the runtime's table, and defines the
/// module's array of `count` slot numbers (all -1 until the constructor
/// runs); fails on a clash with a user symbol of a reserved name.
LogicalResult declareRuntime(ModuleOp module, int64_t count) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto type = LLVM::LLVMFunctionType::get(i32, {ptr, i32, ptr});
  for (StringRef reserved :
       {APPROX_RT_TABLE, APPROX_RT_SLOTS, APPROX_RT_REGISTER_FN})
    if (Operation *existing = SymbolTable::lookupSymbolIn(module, reserved))
      return existing->emitOpError("symbol '")
             << reserved << "' is reserved for the approx runtime";
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  if (Operation *existing =
          SymbolTable::lookupSymbolIn(module, APPROX_RT_PARAM_FN)) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!fn || fn.getFunctionType() != type || !fn.isExternal())
      return existing->emitOpError("symbol '")
             << APPROX_RT_PARAM_FN
             << "' is reserved for the approx runtime (an external "
             << type << ")";
  } else {
    LLVM::LLVMFuncOp::create(b, module.getLoc(), APPROX_RT_PARAM_FN, type);
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

/// The module's constructor: approx_rt_param(&slots[i], default, name) for
/// every read i, which registers the name, applies APPROX_CONFIG and fills
/// in the slot number; appended to the module's global constructors (the
/// program's own, from C++ static initialisers, are kept) at a priority
/// that runs it before them.
void defineRegistration(ModuleOp module,
                        ArrayRef<RuntimeParamRegistration> registrations) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto ctor = LLVM::LLVMFuncOp::create(
      b, loc, APPROX_RT_REGISTER_FN,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  b.setInsertionPointToStart(ctor.addEntryBlock(b));
  auto paramFn = cast<LLVM::LLVMFuncOp>(
      SymbolTable::lookupSymbolIn(module, APPROX_RT_PARAM_FN));
  Value slots = LLVM::AddressOfOp::create(b, loc, ptr, APPROX_RT_SLOTS);
  for (auto [index, r] : llvm::enumerate(registrations)) {
    Value ref = LLVM::GEPOp::create(b, r.loc, ptr, b.getI32Type(), slots,
                                    ArrayRef<LLVM::GEPArg>{int32_t(index)});
    std::string text = r.name;
    text.push_back('\0');
    Value name = LLVM::createGlobalString(
        r.loc, b, "__approx_param_name_" + std::to_string(index), text,
        LLVM::Linkage::Internal);
    Value dflt = LLVM::ConstantOp::create(b, r.loc, b.getI32Type(),
                                          b.getI32IntegerAttr(r.dflt));
    LLVM::CallOp::create(b, r.loc, paramFn, ValueRange{ref, dflt, name});
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());

  SmallVector<Attribute> ctors, priorities, data;
  b.setInsertionPointToEnd(module.getBody());
  for (auto existing :
       llvm::make_early_inc_range(module.getOps<LLVM::GlobalCtorsOp>())) {
    llvm::append_range(ctors, existing.getCtors());
    llvm::append_range(priorities, existing.getPriorities());
    llvm::append_range(data, existing.getData());
    existing.erase();
  }
  ctors.push_back(FlatSymbolRefAttr::get(ctor));
  priorities.push_back(b.getI32IntegerAttr(APPROX_RT_REGISTER_PRIORITY));
  data.push_back(LLVM::ZeroAttr::get(ctx));
  LLVM::GlobalCtorsOp::create(b, loc, b.getArrayAttr(ctors),
                              b.getArrayAttr(priorities), b.getArrayAttr(data));
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
    SmallVector<RuntimeParamRegistration> registrations;
    RewritePatternSet patterns(&getContext());
    populateRuntimeParamLoweringPatterns(patterns, registrations);
    walkAndApplyPatterns(module, std::move(patterns));
    if (module.walk([](RuntimeParamOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return signalPassFailure();
    defineRegistration(module, registrations);
  }
};

} // namespace

void approx::populateRuntimeParamLoweringPatterns(
    RewritePatternSet &patterns,
    SmallVectorImpl<RuntimeParamRegistration> &registrations) {
  patterns.add<LowerRuntimeParam>(patterns.getContext(), &registrations);
}
