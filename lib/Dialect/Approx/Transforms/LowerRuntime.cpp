//===- LowerRuntime.cpp - approx.runtime_param -> the runtime's ABI -------===//
//
// The one place that knows how generated code talks to the approx runtime;
// the names and the layout come from the runtime's public header.
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

/// A read: one load of the module's cell for the parameter's name, which
/// the runtime keeps up to date once the module's constructor has run (and
/// which holds the compile-time default before). Reads of one name share a
/// cell; their defaults must agree.
struct LowerRuntimeParam : OpRewritePattern<RuntimeParamOp> {
  LowerRuntimeParam(MLIRContext *ctx,
                    SmallVectorImpl<RuntimeParamRegistration> *registrations)
      : OpRewritePattern(ctx), registrations(registrations) {}

  LogicalResult matchAndRewrite(RuntimeParamOp op,
                                PatternRewriter &b) const override {
    StringRef name = op.getName();
    auto dflt = int32_t(op.getDefaultValue());
    auto *it = llvm::find_if(*registrations, [&](const auto &r) {
      return r.name == name;
    });
    if (it != registrations->end() && it->dflt != dflt)
      return op.emitOpError("reads runtime parameter '")
             << name << "' with default " << dflt
             << ", but another read of it has default " << it->dflt;
    auto index = int32_t(it - registrations->begin());
    if (it == registrations->end())
      registrations->push_back({name.str(), dflt, op.getLoc()});
    Location loc = op.getLoc();
    b.setInsertionPoint(op);
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value cells = LLVM::AddressOfOp::create(b, loc, ptr, APPROX_RT_CELLS);
    Value cell = LLVM::GEPOp::create(b, loc, ptr, b.getI32Type(), cells,
                                     ArrayRef<LLVM::GEPArg>{index});
    b.replaceOp(op, loadParameterWord(b, loc, cell));
    return success();
  }

  SmallVectorImpl<RuntimeParamRegistration> *registrations;
};

/// Declares the runtime's two functions; fails on a clash with a user
/// symbol of a reserved name.
LogicalResult declareRuntime(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  for (StringRef reserved : {APPROX_RT_CELLS, APPROX_RT_REGISTER_FN,
                             APPROX_RT_UNREGISTER_FN})
    if (Operation *existing = SymbolTable::lookupSymbolIn(module, reserved))
      return existing->emitOpError("symbol '")
             << reserved << "' is reserved for the approx runtime";
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  std::pair<StringRef, LLVM::LLVMFunctionType> functions[] = {
      {APPROX_RT_PARAM_FN, LLVM::LLVMFunctionType::get(i32, {ptr, i32, ptr})},
      {APPROX_RT_RELEASE_FN,
       LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, ptr})}};
  for (auto [name, type] : functions) {
    if (Operation *existing = SymbolTable::lookupSymbolIn(module, name)) {
      auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
      if (!fn || fn.getFunctionType() != type || !fn.isExternal())
        return existing->emitOpError("symbol '")
               << name << "' is reserved for the approx runtime (an external "
               << type << ")";
      continue;
    }
    LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
  }
  return success();
}

/// Appends `fn` at `priority` to the module's global constructors or
/// destructors (`Op`), keeping the program's own.
template <typename Op>
void appendStructor(ModuleOp module, LLVM::LLVMFuncOp fn, int32_t priority) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<Attribute> fns, priorities, data;
  for (auto existing : llvm::make_early_inc_range(module.getOps<Op>())) {
    if constexpr (std::is_same_v<Op, LLVM::GlobalCtorsOp>)
      llvm::append_range(fns, existing.getCtors());
    else
      llvm::append_range(fns, existing.getDtors());
    llvm::append_range(priorities, existing.getPriorities());
    llvm::append_range(data, existing.getData());
    existing.erase();
  }
  fns.push_back(FlatSymbolRefAttr::get(fn));
  priorities.push_back(b.getI32IntegerAttr(priority));
  data.push_back(LLVM::ZeroAttr::get(module.getContext()));
  Op::create(b, module.getLoc(), b.getArrayAttr(fns),
             b.getArrayAttr(priorities), b.getArrayAttr(data));
}

/// An internal `void name()` whose body `body` fills in, at the module's end.
template <typename Body>
LLVM::LLVMFuncOp defineHook(ModuleOp module, StringRef name, Body body) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(
      b, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  b.setInsertionPointToStart(fn.addEntryBlock(b));
  body(b);
  LLVM::ReturnOp::create(b, loc, ValueRange());
  return fn;
}

/// The module's cells (internal, one per parameter name, holding the
/// defaults), its constructor — approx_rt_param(&cells[i], default, name)
/// for every cell, which registers the cell and stores the current value —
/// at a priority that runs it before the program's own constructors, and
/// its destructor — approx_rt_release(cells, cells + n), after which the
/// runtime no longer writes them.
void defineRegistration(ModuleOp module,
                        ArrayRef<RuntimeParamRegistration> registrations) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto count = int64_t(registrations.size());
  SmallVector<int32_t> defaults;
  for (const RuntimeParamRegistration &r : registrations)
    defaults.push_back(r.dflt);
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  LLVM::GlobalOp::create(
      b, loc, LLVM::LLVMArrayType::get(i32, count), /*isConstant=*/false,
      LLVM::Linkage::Internal, APPROX_RT_CELLS,
      DenseElementsAttr::get(RankedTensorType::get({count}, i32),
                             ArrayRef<int32_t>(defaults)),
      /*alignment=*/4);
  auto cell = [&](OpBuilder &hb, Location l, int32_t index) -> Value {
    Value cells = LLVM::AddressOfOp::create(hb, l, ptr, APPROX_RT_CELLS);
    return LLVM::GEPOp::create(hb, l, ptr, hb.getI32Type(), cells,
                               ArrayRef<LLVM::GEPArg>{index});
  };
  auto lookup = [&](StringRef name) {
    return cast<LLVM::LLVMFuncOp>(SymbolTable::lookupSymbolIn(module, name));
  };
  auto ctor = defineHook(module, APPROX_RT_REGISTER_FN, [&](OpBuilder &hb) {
    for (auto [index, r] : llvm::enumerate(registrations)) {
      std::string text = r.name;
      text.push_back('\0');
      Value name = LLVM::createGlobalString(
          r.loc, hb, "__approx_param_name_" + std::to_string(index), text,
          LLVM::Linkage::Internal);
      Value dflt = LLVM::ConstantOp::create(hb, r.loc, hb.getI32Type(),
                                            hb.getI32IntegerAttr(r.dflt));
      LLVM::CallOp::create(hb, r.loc, lookup(APPROX_RT_PARAM_FN),
                           ValueRange{cell(hb, r.loc, int32_t(index)), dflt,
                                      name});
    }
  });
  auto dtor = defineHook(module, APPROX_RT_UNREGISTER_FN, [&](OpBuilder &hb) {
    LLVM::CallOp::create(hb, loc, lookup(APPROX_RT_RELEASE_FN),
                         ValueRange{cell(hb, loc, 0),
                                    cell(hb, loc, int32_t(count))});
  });
  appendStructor<LLVM::GlobalCtorsOp>(module, ctor, APPROX_RT_REGISTER_PRIORITY);
  appendStructor<LLVM::GlobalDtorsOp>(module, dtor, APPROX_RT_REGISTER_PRIORITY);
}

struct LowerApproxRuntimePass
    : approx::impl::LowerApproxRuntimeBase<LowerApproxRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!module.walk([](RuntimeParamOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      return;
    if (failed(declareRuntime(module)))
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
