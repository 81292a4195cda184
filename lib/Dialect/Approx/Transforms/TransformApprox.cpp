//===- TransformApprox.cpp - decision trees and transforms -> std ---------===//
//
// Each knob is lowered in three steps: its decision tree (if any) becomes
// arith comparisons plus an scf.index_switch computing the knob value k; the
// transform is applied with k, changing only what it must (a loop step, a
// call, a branch condition); a safety contract becomes checker + scf.if +
// recover.
//
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace approx {
#define GEN_PASS_DEF_TRANSFORMAPPROX
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

/// The runtime entry point reading one tunable parameter:
/// int32_t approx_rt_param(int32_t slot, int32_t default, const char *name).
static constexpr llvm::StringLiteral kRuntimeParamFn = "approx_rt_param";
/// The runtime's published values, one 64-bit word per slot: bit 32 set once
/// the slot is registered, the value in the low 32 bits. Generated code reads
/// it inline and calls approx_rt_param only on a slot's first read.
static constexpr llvm::StringLiteral kRuntimeTable = "approx_rt_table";
static constexpr int64_t kRuntimeTableSlots = 16384;

namespace {

/// The knob value a transform is applied with.
struct KnobValue {
  Value value;                    // i32, always set
  std::optional<int32_t> constant; // set when known at compile time
  SmallVector<int32_t> candidates; // non-zero values it may take, sorted
};

struct TransformApproxPass
    : approx::impl::TransformApproxBase<TransformApproxPass> {
  void runOnOperation() override;

  int32_t nextSlot = 0;

  LogicalResult declareRuntime(ModuleOp module);
  Value param(OpBuilder &b, Location loc, int32_t dflt, StringAttr name);
  TransformOp lowerDecisionTree(DecisionTreeOp dt);
  FailureOr<KnobValue> knobValue(TransformOp t);
  LogicalResult applyTransform(KnobOp knob, TransformOp t);
  LogicalResult perforate(KnobOp knob, Operation *loop, const KnobValue &k);
  LogicalResult substitute(KnobOp knob, TransformOp t, const KnobValue &k);
  LogicalResult skipTask(KnobOp knob, TransformOp t, const KnobValue &k);
  void lowerContract(KnobOp knob, SafetyContractOp contract);
};

Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

/// Converts an i32 knob value to `type` (index or an integer type).
Value castTo(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, v);
  unsigned width = type.getIntOrFloatBitWidth();
  if (width > 32)
    return arith::ExtSIOp::create(b, loc, type, v);
  if (width < 32)
    return arith::TruncIOp::create(b, loc, type, v);
  return v;
}

/// The ops of the knob's region proper: those after the management op,
/// without the safety contract and the terminator.
SmallVector<Operation *> regionOps(KnobOp knob, Operation *mgmt) {
  SmallVector<Operation *> ops;
  for (Operation *op = mgmt->getNextNode(); op; op = op->getNextNode())
    if (!isa<SafetyContractOp, YieldOp>(op))
      ops.push_back(op);
  return ops;
}

/// The first op of type OpTs in the region proper, in pre-order.
template <typename... OpTs>
Operation *findFirstAfter(KnobOp knob, Operation *mgmt) {
  for (Operation *top : regionOps(knob, mgmt)) {
    Operation *found = nullptr;
    top->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<OpTs...>(op)) {
        found = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (found)
      return found;
  }
  return nullptr;
}

} // namespace

LogicalResult TransformApproxPass::declareRuntime(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto type = FunctionType::get(ctx, {i32, i32, ptr}, {i32});
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, kRuntimeParamFn)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (!fn || fn.getFunctionType() != type)
      return existing->emitOpError("symbol '")
             << kRuntimeParamFn
             << "' is reserved for the approx runtime and must have type "
             << type;
    return success();
  }
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), kRuntimeParamFn, type);
  fn.setPrivate();
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, kRuntimeTable))
    return existing->emitOpError("symbol '")
           << kRuntimeTable << "' is reserved for the approx runtime";
  LLVM::GlobalOp::create(
      b, module.getLoc(),
      LLVM::LLVMArrayType::get(b.getI64Type(), kRuntimeTableSlots),
      /*isConstant=*/false, LLVM::Linkage::External, kRuntimeTable,
      Attribute());
  return success();
}

Value TransformApproxPass::param(OpBuilder &b, Location loc, int32_t dflt,
                                 StringAttr name) {
  if (!name)
    return constI32(b, loc, dflt);
  std::string sym = "__approx_param_name_" + std::to_string(nextSlot);
  std::string text = name.getValue().str();
  text.push_back('\0');
  Value str = LLVM::createGlobalString(loc, b, sym, text,
                                       LLVM::Linkage::Internal);
  int32_t slotIndex = nextSlot++;
  // Fast path: the published word of the slot (one relaxed load).
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value table = LLVM::AddressOfOp::create(b, loc, ptr, kRuntimeTable);
  Value entry = LLVM::GEPOp::create(b, loc, ptr, b.getI64Type(), table,
                                    ArrayRef<LLVM::GEPArg>{slotIndex});
  Value word = LLVM::LoadOp::create(b, loc, b.getI64Type(), entry,
                                    /*alignment=*/8, false, false, false,
                                    false, LLVM::AtomicOrdering::monotonic);
  Value high = arith::ShRUIOp::create(
      b, loc, word, arith::ConstantIntOp::create(b, loc, b.getI64Type(), 32));
  Value ready = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, high,
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
  auto ifOp = scf::IfOp::create(
      b, loc, ready,
      [&](OpBuilder &t, Location l) {
        Value v = arith::TruncIOp::create(t, l, t.getI32Type(), word);
        scf::YieldOp::create(t, l, v);
      },
      [&](OpBuilder &e, Location l) {
        // First read: register the slot (reads APPROX_CONFIG).
        auto call = func::CallOp::create(
            e, l, kRuntimeParamFn, TypeRange(e.getI32Type()),
            ValueRange{constI32(e, l, slotIndex), constI32(e, l, dflt), str});
        scf::YieldOp::create(e, l, call.getResult(0));
      });
  return ifOp.getResult(0);
}

TransformOp TransformApproxPass::lowerDecisionTree(DecisionTreeOp dt) {
  OpBuilder b(dt);
  Location loc = dt.getLoc();
  ArrayRef<int32_t> thresholds = dt.getThresholds();
  ArrayRef<int32_t> decisions = dt.getDecisions();
  size_t n = thresholds.size();
  auto name = [&](size_t i) -> StringAttr {
    if (auto names = dt.getRuntimeParams())
      return cast<StringAttr>((*names)[i]);
    return {};
  };

  // Branch index = number of thresholds <= state.
  Value count = constI32(b, loc, 0);
  for (size_t i = 0; i < n; ++i) {
    Value t = param(b, loc, thresholds[i], name(i));
    Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                     dt.getState(), t);
    Value one = arith::ExtUIOp::create(b, loc, b.getI32Type(), ge);
    count = arith::AddIOp::create(b, loc, count, one);
  }
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
  SmallVector<int64_t> cases;
  for (size_t i = 0; i < n; ++i)
    cases.push_back(int64_t(i));
  auto sw = scf::IndexSwitchOp::create(b, loc, TypeRange(b.getI32Type()),
                                       index, cases, cases.size());
  auto fill = [&](Region &region, size_t j) {
    OpBuilder rb = OpBuilder::atBlockBegin(&region.emplaceBlock());
    Value d = param(rb, loc, decisions[j], name(n + j));
    scf::YieldOp::create(rb, loc, d);
  };
  for (size_t i = 0; i < n; ++i)
    fill(sw.getCaseRegions()[i], i);
  fill(sw.getDefaultRegion(), n);

  SmallVector<int32_t> candidates(decisions);
  if (auto values = dt.getDecisionValues())
    llvm::append_range(candidates, *values);
  auto t = TransformOp::create(b, loc, sw.getResult(0),
                               dt.getTransformTypeAttr(), IntegerAttr(),
                               b.getDenseI32ArrayAttr(candidates),
                               StringAttr());
  dt.erase();
  return t;
}

FailureOr<KnobValue> TransformApproxPass::knobValue(TransformOp t) {
  KnobValue k;
  SmallVector<int32_t> all;
  if (auto values = t.getDecisionValues())
    llvm::append_range(all, *values);
  if (t.getValue()) {
    if (!t.getDecisionValues() && t.getTransformType() != kLoopPerforate)
      return t.emitOpError("a ")
             << t.getTransformType()
             << " driven by an SSA value needs decision_values: the values "
                "it may take decide the variants or branches to generate";
    k.value = t.getValue();
  } else {
    int32_t v = int32_t(t.getKnobValAttr().getInt());
    all.push_back(v);
    OpBuilder b(t);
    if (auto name = t.getRuntimeParamAttr()) {
      k.value = param(b, t.getLoc(), v, name);
    } else {
      k.constant = v;
      all.assign({v});
      k.value = constI32(b, t.getLoc(), v);
    }
  }
  llvm::sort(all);
  for (int32_t v : llvm::make_range(all.begin(), std::unique(all.begin(), all.end())))
    if (v != 0)
      k.candidates.push_back(v);
  return k;
}

LogicalResult TransformApproxPass::perforate(KnobOp knob, Operation *loop,
                                             const KnobValue &k) {
  OpBuilder b(loop);
  Location loc = loop->getLoc();
  // Stride multiplier: max(k, 1), so that 0 (exact) runs every iteration.
  Value factor =
      k.constant ? constI32(b, loc, std::max(*k.constant, 1))
                 : arith::MaxSIOp::create(b, loc, k.value, constI32(b, loc, 1))
                       .getResult();
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    Value step = forOp.getStep();
    Value scaled = arith::MulIOp::create(
        b, loc, step, castTo(b, loc, factor, step.getType()));
    forOp.getStepMutable().assign(scaled);
    return success();
  }

  // scf.while: find the induction variable, an iteration argument forwarded
  // to the body and advanced there by a loop-invariant amount.
  auto w = cast<scf::WhileOp>(loop);
  Block &before = w.getBefore().front();
  Block &after = w.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  auto invariant = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return !w->isAncestor(v.getParentBlock()->getParentOp());
    return !w->isAncestor(def) || matchPattern(v, m_Constant());
  };
  auto cmp = cond.getCondition().getDefiningOp<arith::CmpIOp>();
  Operation *chosen = nullptr;
  unsigned chosenOperand = 0;
  bool chosenInCondition = false;
  for (unsigned p = 0; p < before.getNumArguments(); ++p) {
    Value iv = before.getArgument(p);
    for (auto [q, forwarded] : llvm::enumerate(cond.getArgs())) {
      if (forwarded != iv || p >= yield.getNumOperands())
        continue;
      Value bodyIv = after.getArgument(q);
      Operation *def = yield.getOperand(p).getDefiningOp();
      unsigned operand = 0;
      if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
        if (add.getLhs() == bodyIv && invariant(add.getRhs()))
          operand = 1;
        else if (add.getRhs() == bodyIv && invariant(add.getLhs()))
          operand = 0;
        else
          continue;
      } else if (auto sub = dyn_cast_or_null<arith::SubIOp>(def)) {
        if (sub.getLhs() != bodyIv || !invariant(sub.getRhs()))
          continue;
        operand = 1;
      } else {
        continue;
      }
      bool inCondition =
          cmp && (cmp.getLhs() == iv || cmp.getRhs() == iv);
      if (inCondition && (cmp.getPredicate() == arith::CmpIPredicate::eq ||
                          cmp.getPredicate() == arith::CmpIPredicate::ne))
        return w.emitOpError("loop_perforate: the exit test compares the "
                             "induction variable with ==/!=, so a larger step "
                             "could skip the bound; use </<=/>/>=");
      if (!chosen || (inCondition && !chosenInCondition)) {
        chosen = def;
        chosenOperand = operand;
        chosenInCondition = inCondition;
      }
    }
  }
  if (!chosen)
    return w.emitOpError(
        "loop_perforate: cannot find the induction variable of this "
        "scf.while (an iteration argument advanced by a loop-invariant "
        "amount with arith.addi/arith.subi)");
  OpBuilder ib(chosen);
  Value inc = chosen->getOperand(chosenOperand);
  Value scaled = arith::MulIOp::create(
      ib, loc, inc, castTo(ib, loc, factor, inc.getType()));
  chosen->setOperand(chosenOperand, scaled);
  return success();
}

LogicalResult TransformApproxPass::substitute(KnobOp knob, TransformOp t,
                                              const KnobValue &k) {
  SymbolTableCollection tables;
  auto fn = knob->getParentOfType<func::FuncOp>();
  std::string base;
  SmallVector<func::CallOp> sites;
  bool whole = false;
  if (auto callee = knob.getCalleeAttr()) {
    base = callee.getValue().str();
    for (Operation *op : regionOps(knob, t))
      op->walk([&](func::CallOp call) {
        if (call.getCallee() == base)
          sites.push_back(call);
      });
    if (sites.empty())
      return knob.emitOpError("func_substitute: no call to @")
             << base << " inside the knob";
  } else if (knob.isWholeFunction() && fn) {
    base = fn.getSymName().str();
    whole = true;
  } else {
    return knob.emitOpError("func_substitute needs a knob around a whole "
                            "function or a 'callee' whose calls to replace");
  }
  if (failed(verifySubstituteVariants(knob, tables, base, k.candidates)))
    return failure();

  auto buildCases = [&](OpBuilder &b, Location loc, TypeRange types,
                        ValueRange args) {
    Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), k.value);
    SmallVector<int64_t> cases(k.candidates.begin(), k.candidates.end());
    auto sw = scf::IndexSwitchOp::create(b, loc, types, index, cases,
                                         cases.size());
    for (auto [region, c] : llvm::zip(sw.getCaseRegions(), k.candidates)) {
      OpBuilder rb = OpBuilder::atBlockBegin(&region.emplaceBlock());
      auto call = func::CallOp::create(rb, loc, variantName(base, c), types,
                                       args);
      scf::YieldOp::create(rb, loc, call.getResults());
    }
    sw.getDefaultRegion().emplaceBlock();
    return sw;
  };

  if (!whole) {
    for (func::CallOp call : sites) {
      if (k.constant) {
        call.setCallee(variantName(base, *k.constant));
        continue;
      }
      if (k.candidates.empty())
        continue;
      OpBuilder b(call);
      auto sw = buildCases(b, call.getLoc(), call.getResultTypes(),
                           call.getOperands());
      call->replaceAllUsesWith(sw.getResults());
      Block &dflt = sw.getDefaultRegion().front();
      call->moveBefore(&dflt, dflt.end());
      OpBuilder db = OpBuilder::atBlockEnd(&dflt);
      scf::YieldOp::create(db, call.getLoc(), call.getResults());
    }
    return success();
  }

  // Whole function: the body is the exact case; each variant is one call.
  Operation *yield = knob.getYield();
  SmallVector<Operation *> body = regionOps(knob, t);
  OpBuilder b(yield);
  Location loc = knob.getLoc();
  if (k.constant) {
    auto call = func::CallOp::create(b, loc, variantName(base, *k.constant),
                                     knob.getResultTypes(), fn.getArguments());
    yield->setOperands(call.getResults());
    for (Operation *op : llvm::reverse(body)) {
      op->dropAllUses();
      op->erase();
    }
    return success();
  }
  if (k.candidates.empty())
    return success();
  auto sw = buildCases(b, loc, knob.getResultTypes(), fn.getArguments());
  Block &dflt = sw.getDefaultRegion().front();
  for (Operation *op : body)
    op->moveBefore(&dflt, dflt.end());
  OpBuilder db = OpBuilder::atBlockEnd(&dflt);
  scf::YieldOp::create(db, loc, yield->getOperands());
  yield->setOperands(sw.getResults());
  return success();
}

LogicalResult TransformApproxPass::skipTask(KnobOp knob, TransformOp t,
                                            const KnobValue &k) {
  Operation *target = findFirstAfter<scf::IfOp, scf::IndexSwitchOp>(knob, t);
  if (!target)
    return knob.emitOpError(
        "task_skipping: the knob contains no scf.if or scf.index_switch");
  int64_t branches = 2;
  if (auto sw = dyn_cast<scf::IndexSwitchOp>(target))
    branches = int64_t(sw.getNumCases()) + 1;
  for (int32_t c : k.candidates)
    if (c > branches)
      return knob.emitOpError("task_skipping value ")
             << c << " forces branch " << c - 1 << ", but the "
             << target->getName() << " has only " << branches << " branches";

  OpBuilder b(target);
  Location loc = target->getLoc();
  auto eq = [&](int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k.value,
                                 constI32(b, loc, c));
  };
  if (auto ifOp = dyn_cast<scf::IfOp>(target)) {
    Value cond;
    if (k.constant)
      cond = arith::ConstantIntOp::create(b, loc, b.getI1Type(),
                                          *k.constant == 1);
    else {
      Value exact = eq(0);
      Value forceThen = eq(1);
      cond = arith::SelectOp::create(b, loc, exact, ifOp.getCondition(),
                                     forceThen);
    }
    ifOp.getConditionMutable().assign(cond);
    return success();
  }
  auto sw = cast<scf::IndexSwitchOp>(target);
  ArrayRef<int64_t> cases = sw.getCases();
  int64_t dflt = cases.empty() ? 0 : *llvm::max_element(cases) + 1;
  auto branchValue = [&](int32_t c) {
    return size_t(c - 1) < cases.size() ? cases[c - 1] : dflt;
  };
  Value sel = sw.getArg();
  if (k.constant) {
    sel = arith::ConstantIndexOp::create(b, loc, branchValue(*k.constant));
  } else {
    for (int32_t c : k.candidates) {
      Value isC = eq(c);
      Value branch = arith::ConstantIndexOp::create(b, loc, branchValue(c));
      sel = arith::SelectOp::create(b, loc, isC, branch, sel);
    }
  }
  sw.getArgMutable().assign(sel);
  return success();
}

LogicalResult TransformApproxPass::applyTransform(KnobOp knob, TransformOp t) {
  FailureOr<KnobValue> k = knobValue(t);
  if (failed(k))
    return failure();
  LogicalResult result = success();
  if (!(k->constant && *k->constant == 0)) {
    StringRef type = t.getTransformType();
    if (type == kLoopPerforate) {
      Operation *loop = findFirstAfter<scf::ForOp, scf::WhileOp>(knob, t);
      result = loop ? perforate(knob, loop, *k)
                    : knob.emitOpError("loop_perforate: the knob contains no "
                                       "scf.for or scf.while");
    } else if (type == kFuncSubstitute) {
      result = substitute(knob, t, *k);
    } else {
      result = skipTask(knob, t, *k);
    }
  }
  t.erase();
  return result;
}

void TransformApproxPass::lowerContract(KnobOp knob,
                                        SafetyContractOp contract) {
  auto fn = knob->getParentOfType<func::FuncOp>();
  Operation *yield = knob.getYield();
  OpBuilder b(yield);
  Location loc = contract.getLoc();
  SmallVector<Value> checkArgs(yield->getOperands());
  llvm::append_range(checkArgs, fn.getArguments());
  auto check = func::CallOp::create(b, loc, contract.getChecker(),
                                    TypeRange(b.getI1Type()), checkArgs);
  auto ifOp = scf::IfOp::create(b, loc, knob.getResultTypes(),
                                check.getResult(0), /*withElse=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  if (!knob.getResultTypes().empty())
    scf::YieldOp::create(tb, loc, yield->getOperands());
  OpBuilder eb = ifOp.getElseBodyBuilder();
  auto recover = func::CallOp::create(eb, loc, contract.getRecover(),
                                      knob.getResultTypes(), fn.getArguments());
  if (!knob.getResultTypes().empty())
    scf::YieldOp::create(eb, loc, recover.getResults());
  yield->setOperands(ifOp.getResults());
  contract.erase();
}

void TransformApproxPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(verifyKnobsUnique(module)))
    return signalPassFailure();
  bool needsRuntime = false;
  module.walk([&](Operation *op) {
    if (auto dt = dyn_cast<DecisionTreeOp>(op))
      needsRuntime |= bool(dt.getRuntimeParams());
    if (auto t = dyn_cast<TransformOp>(op))
      needsRuntime |= bool(t.getRuntimeParam());
  });
  if (needsRuntime && failed(declareRuntime(module)))
    return signalPassFailure();

  for (KnobOp knob : collectKnobs(module)) {
    Operation *mgmt = knob.getManagementOp();
    if (!mgmt) {
      knob.emitOpError("has no decision_tree or transform; run "
                       "emit-management first");
      return signalPassFailure();
    }
    TransformOp t = isa<DecisionTreeOp>(mgmt)
                        ? lowerDecisionTree(cast<DecisionTreeOp>(mgmt))
                        : cast<TransformOp>(mgmt);
    auto contract = dyn_cast_or_null<SafetyContractOp>(knob.getSafetyContract());
    if (failed(applyTransform(knob, t)))
      return signalPassFailure();
    if (contract)
      lowerContract(knob, contract);
    knob.setLowered(true);
  }
}
