//===- ExactFastPath.cpp - runtime tables: exact copies of knob functions -===//
//
// A runtime-table build evaluates its decision trees on every call, also
// when the table holds the exact configuration. In a loop that calls a small
// knob function (pagerank's update_node, once per node) that made the table
// build's exact configuration 1.1-1.2x slower than the exact build, so the
// tuner measured speedups against a slower baseline than the one deployed.
// clone-exact-approx gives such functions an exact copy, and
// dispatch-exact-approx makes their calls choose it while the table holds
// the exact values: the exact build's code behind one hoistable test.
//
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace approx {
#define GEN_PASS_DEF_CLONEEXACTAPPROX
#define GEN_PASS_DEF_DISPATCHEXACTAPPROX
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

/// What clone-exact-approx leaves on a copied function for
/// dispatch-exact-approx: its copy, and the table parameters (name ->
/// default) that must all be 0 for the copy to compute what it computes.
constexpr StringLiteral kCopyAttr = "approx.exact_copy";
constexpr StringLiteral kWhenAttr = "approx.exact_when";
constexpr StringLiteral kCopyPrefix = "__approx_exact_";

/// Adds the table parameters whose values 0 make `knob` exact (its
/// decisions, or its knob value) to `out`, with their defaults; false when
/// the knob does not read the table.
bool addExactParams(KnobOp knob, llvm::StringMap<int32_t> &out) {
  Operation *mgmt = knob.getManagementOp();
  if (auto dt = dyn_cast_or_null<DecisionTreeOp>(mgmt)) {
    std::optional<ArrayAttr> names = dt.getRuntimeParams();
    if (!names)
      return false;
    size_t n = dt.getThresholds().size();
    for (auto [j, d] : llvm::enumerate(dt.getDecisions()))
      out[cast<StringAttr>((*names)[n + j]).getValue()] = d;
    return true;
  }
  if (auto t = dyn_cast_or_null<TransformOp>(mgmt)) {
    std::optional<StringRef> name = t.getRuntimeParam();
    if (!name)
      return false;
    out[*name] = int32_t(t.getKnobValAttr().getInt());
    return true;
  }
  return false;
}

/// `knob` as the exact build has it: no management, no contract, the
/// body in its place.
void makeExact(KnobOp knob) {
  if (Operation *contract = knob.getSafetyContract())
    contract->erase();
  if (Operation *mgmt = knob.getManagementOp()) {
    Value state;
    if (auto dt = dyn_cast<DecisionTreeOp>(mgmt))
      state = dt.getState();
    mgmt->erase();
    if (state)
      eraseUnusedStateCall(state);
  }
  inlineKnob(knob);
}

/// Gives `copy`, a clone of a function with debug information, a
/// subprogram of its own (LLVM wants one per function), named as the
/// source function with the copy's symbol as its linkage name.
void ownSubprogram(func::FuncOp copy) {
  auto fused = dyn_cast<FusedLocWith<LLVM::DISubprogramAttr>>(copy.getLoc());
  if (!fused)
    return;
  LLVM::DISubprogramAttr sp = fused.getMetadata();
  MLIRContext *ctx = copy.getContext();
  DistinctAttr recId =
      sp.getRecId() ? DistinctAttr::create(UnitAttr::get(ctx)) : DistinctAttr();
  auto fresh = LLVM::DISubprogramAttr::get(
      ctx, recId, sp.getIsRecSelf(), DistinctAttr::create(UnitAttr::get(ctx)),
      sp.getCompileUnit(), sp.getScope(), sp.getName(),
      StringAttr::get(ctx, copy.getSymName()), sp.getFile(), sp.getLine(),
      sp.getScopeLine(), sp.getSubprogramFlags(), sp.getType(),
      sp.getRetainedNodes(), sp.getAnnotations());
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](LLVM::DISubprogramAttr a) -> std::optional<Attribute> {
        if (a == sp)
          return fresh;
        if (recId && a.getIsRecSelf() && a.getRecId() == sp.getRecId())
          return LLVM::DISubprogramAttr::getRecSelf(recId);
        return std::nullopt;
      });
  replacer.recursivelyReplaceElementsIn(copy, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

struct CloneExactApproxPass
    : approx::impl::CloneExactApproxBase<CloneExactApproxPass> {
  void runOnOperation() override;
};

void CloneExactApproxPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Functions whose knobs all read the table, with those knobs' parameters.
  llvm::MapVector<func::FuncOp, llvm::StringMap<int32_t>> own;
  for (auto fn : module.getOps<func::FuncOp>()) {
    llvm::StringMap<int32_t> params;
    bool any = false, all = true;
    fn.walk([&](KnobOp knob) {
      any = true;
      all &= addExactParams(knob, params);
    });
    if (any && all)
      own[fn] = std::move(params);
  }
  if (own.empty())
    return;
  SymbolTable symbols(module);
  auto knobCallee = [&](func::CallOp call) {
    auto fn = symbols.lookup<func::FuncOp>(call.getCallee());
    return fn && own.count(fn) ? fn : func::FuncOp();
  };
  // Those called in a loop, and the ones their copies call.
  llvm::SetVector<func::FuncOp> copied;
  module.walk([&](func::CallOp call) {
    if (func::FuncOp fn = knobCallee(call))
      if (call->getParentOfType<LoopLikeOpInterface>())
        copied.insert(fn);
  });
  llvm::DenseMap<func::FuncOp, SmallVector<func::FuncOp>> callees;
  for (size_t i = 0; i < copied.size(); ++i) {
    func::FuncOp fn = copied[i];
    fn.walk([&](func::CallOp call) {
      if (func::FuncOp g = knobCallee(call)) {
        callees[fn].push_back(g);
        copied.insert(g);
      }
    });
  }

  llvm::DenseMap<func::FuncOp, func::FuncOp> copies;
  for (func::FuncOp fn : copied) {
    std::string name = (kCopyPrefix + fn.getSymName()).str();
    if (Operation *clash = symbols.lookup(name)) {
      clash->emitOpError("symbol '")
          << name << "' is reserved for the exact copy of @" << fn.getSymName()
          << " in runtime-table builds";
      return signalPassFailure();
    }
    func::FuncOp copy = fn.clone();
    copy.setSymName(name);
    // Internal (programs of several files each have their own), and no C
    // interface of its own.
    copy.setPrivate();
    copy->removeAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName());
    copy->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                      &getContext(), LLVM::Linkage::Internal));
    ownSubprogram(copy);
    symbols.insert(copy, std::next(Block::iterator(fn)));
    copies[fn] = copy;
  }
  for (auto [fn, copy] : copies) {
    SmallVector<KnobOp> knobs;
    copy.walk<WalkOrder::PostOrder>([&](KnobOp k) { knobs.push_back(k); });
    for (KnobOp knob : knobs)
      makeExact(knob);
    copy.walk([&](func::CallOp call) {
      if (func::FuncOp g = knobCallee(call))
        call.setCallee(copies[g].getSymName());
    });
  }

  // A copy is exact when its own knobs and those of the copies it calls
  // are (a fixpoint, for recursion).
  llvm::DenseMap<func::FuncOp, llvm::StringMap<int32_t>> when;
  for (func::FuncOp fn : copied)
    when[fn] = own[fn];
  for (bool changed = true; changed;) {
    changed = false;
    for (func::FuncOp fn : copied)
      for (func::FuncOp g : callees[fn])
        for (const auto &entry : when[g])
          changed |=
              when[fn].try_emplace(entry.getKey(), entry.getValue()).second;
  }
  Builder b(&getContext());
  for (func::FuncOp fn : copied) {
    SmallVector<NamedAttribute> params;
    for (const auto &entry : when[fn])
      params.push_back(b.getNamedAttr(entry.getKey(),
                                      b.getI32IntegerAttr(entry.getValue())));
    fn->setAttr(kCopyAttr, FlatSymbolRefAttr::get(copies[fn]));
    fn->setAttr(kWhenAttr, b.getDictionaryAttr(params));
  }
}

struct DispatchExactApproxPass
    : approx::impl::DispatchExactApproxBase<DispatchExactApproxPass> {
  void runOnOperation() override;
};

void DispatchExactApproxPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
  module.walk([&](func::CallOp call) {
    auto fn = symbols.lookup<func::FuncOp>(call.getCallee());
    if (fn && fn->hasAttr(kCopyAttr))
      calls.push_back({call, fn});
  });
  for (auto [call, fn] : calls) {
    auto copy = fn->getAttrOfType<FlatSymbolRefAttr>(kCopyAttr);
    auto params = fn->getAttrOfType<DictionaryAttr>(kWhenAttr);
    Location loc = call.getLoc();
    OpBuilder b(call);
    Value exact;
    for (NamedAttribute param : params) {
      Value v = RuntimeParamOp::create(
          b, loc, b.getI32Type(), param.getName(),
          b.getI32IntegerAttr(cast<IntegerAttr>(param.getValue()).getInt()));
      Value zero =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                arith::ConstantIntOp::create(b, loc, 0, 32));
      exact = exact ? arith::AndIOp::create(b, loc, exact, zero) : zero;
    }
    Operation *elseYield = nullptr;
    auto ifOp = scf::IfOp::create(
        b, loc, exact,
        [&](OpBuilder &tb, Location l) {
          auto fast = func::CallOp::create(tb, l, copy, call.getResultTypes(),
                                           call.getOperands());
          scf::YieldOp::create(tb, l, fast.getResults());
        },
        [&](OpBuilder &eb, Location l) {
          elseYield = scf::YieldOp::create(eb, l, call.getResults());
        });
    call->replaceUsesWithIf(ifOp.getResults(), [&](OpOperand &use) {
      return use.getOwner() != elseYield;
    });
    call->moveBefore(elseYield);
  }
  for (auto fn : module.getOps<func::FuncOp>()) {
    fn->removeAttr(kCopyAttr);
    fn->removeAttr(kWhenAttr);
  }
}

} // namespace
