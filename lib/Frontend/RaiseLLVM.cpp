//===- RaiseLLVM.cpp - imported LLVM IR -> func/cf/arith ------------------===//
#include "approx/Frontend/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/StringSet.h"

namespace approx {
#define GEN_PASS_DEF_RAISELLVMTOSTD
#include "approx/Frontend/Passes.h.inc"
} // namespace approx

using namespace mlir;

namespace {

bool isScalar(Type t) { return t.isIntOrIndexOrFloat(); }

bool allScalar(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

/// Replaces `op` by `To` with the same operands and result types, keeping
/// nsw/nuw (LLVM uses them to widen induction variables).
template <typename To> void replaceWith(OpBuilder &b, Operation *op) {
  b.setInsertionPoint(op);
  auto repl = To::create(b, op->getLoc(), op->getResultTypes(),
                         op->getOperands(), ArrayRef<NamedAttribute>{});
  if (auto src = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op))
    if (auto dst = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(
            repl.getOperation()))
      repl->setAttr(dst.getIntegerOverflowAttrName(),
                    arith::IntegerOverflowFlagsAttr::get(
                        b.getContext(), static_cast<arith::IntegerOverflowFlags>(
                                            src.getOverflowFlags())));
  op->replaceAllUsesWith(repl);
  op->erase();
}

template <typename From, typename To>
bool raiseSame(OpBuilder &b, Operation *op) {
  if (!isa<From>(op) || !allScalar(op))
    return false;
  replaceWith<To>(b, op);
  return true;
}


/// Scalar arithmetic, comparisons, casts, selects and constants.
bool raiseArith(OpBuilder &b, Operation *op) {
  // clang-format off
  if (raiseSame<LLVM::AddOp, arith::AddIOp>(b, op) ||
      raiseSame<LLVM::SubOp, arith::SubIOp>(b, op) ||
      raiseSame<LLVM::MulOp, arith::MulIOp>(b, op) ||
      raiseSame<LLVM::SDivOp, arith::DivSIOp>(b, op) ||
      raiseSame<LLVM::UDivOp, arith::DivUIOp>(b, op) ||
      raiseSame<LLVM::SRemOp, arith::RemSIOp>(b, op) ||
      raiseSame<LLVM::URemOp, arith::RemUIOp>(b, op) ||
      raiseSame<LLVM::AndOp, arith::AndIOp>(b, op) ||
      raiseSame<LLVM::OrOp, arith::OrIOp>(b, op) ||
      raiseSame<LLVM::XOrOp, arith::XOrIOp>(b, op) ||
      raiseSame<LLVM::ShlOp, arith::ShLIOp>(b, op) ||
      raiseSame<LLVM::LShrOp, arith::ShRUIOp>(b, op) ||
      raiseSame<LLVM::AShrOp, arith::ShRSIOp>(b, op) ||
      raiseSame<LLVM::FAddOp, arith::AddFOp>(b, op) ||
      raiseSame<LLVM::FSubOp, arith::SubFOp>(b, op) ||
      raiseSame<LLVM::FMulOp, arith::MulFOp>(b, op) ||
      raiseSame<LLVM::FDivOp, arith::DivFOp>(b, op) ||
      raiseSame<LLVM::FRemOp, arith::RemFOp>(b, op) ||
      raiseSame<LLVM::FNegOp, arith::NegFOp>(b, op) ||
      raiseSame<LLVM::SExtOp, arith::ExtSIOp>(b, op) ||
      raiseSame<LLVM::ZExtOp, arith::ExtUIOp>(b, op) ||
      raiseSame<LLVM::TruncOp, arith::TruncIOp>(b, op) ||
      raiseSame<LLVM::SIToFPOp, arith::SIToFPOp>(b, op) ||
      raiseSame<LLVM::UIToFPOp, arith::UIToFPOp>(b, op) ||
      raiseSame<LLVM::FPToSIOp, arith::FPToSIOp>(b, op) ||
      raiseSame<LLVM::FPToUIOp, arith::FPToUIOp>(b, op) ||
      raiseSame<LLVM::FPExtOp, arith::ExtFOp>(b, op) ||
      raiseSame<LLVM::FPTruncOp, arith::TruncFOp>(b, op) ||
      raiseSame<LLVM::SelectOp, arith::SelectOp>(b, op))
    return true;
  // clang-format on
  b.setInsertionPoint(op);
  if (auto cmp = dyn_cast<LLVM::ICmpOp>(op)) {
    if (!allScalar(op))
      return false;
    auto pred = arith::symbolizeCmpIPredicate(
        LLVM::stringifyICmpPredicate(cmp.getPredicate()));
    if (!pred)
      return false;
    auto repl = arith::CmpIOp::create(b, op->getLoc(), *pred, cmp.getLhs(),
                                      cmp.getRhs());
    op->replaceAllUsesWith(repl);
    op->erase();
    return true;
  }
  if (auto cmp = dyn_cast<LLVM::FCmpOp>(op)) {
    if (!allScalar(op))
      return false;
    StringRef name = LLVM::stringifyFCmpPredicate(cmp.getPredicate());
    auto pred = arith::symbolizeCmpFPredicate(name.ltrim('_'));
    if (!pred)
      return false;
    auto repl = arith::CmpFOp::create(b, op->getLoc(), *pred, cmp.getLhs(),
                                      cmp.getRhs());
    op->replaceAllUsesWith(repl);
    op->erase();
    return true;
  }
  if (auto cst = dyn_cast<LLVM::ConstantOp>(op)) {
    auto value = dyn_cast<TypedAttr>(cst.getValue());
    if (!value || !isa<IntegerAttr, FloatAttr>(value) ||
        value.getType() != cst.getType())
      return false;
    auto repl = arith::ConstantOp::create(b, op->getLoc(), value);
    op->replaceAllUsesWith(repl);
    op->erase();
    return true;
  }
  return false;
}

/// Whether function `f` (llvm.func or raised) never returns: LLVM's
/// `noreturn` (abort, exit, __assert_fail, __cxa_throw, the program's own).
bool isNoReturn(Operation *f) {
  auto attrs = f ? f->getAttrOfType<ArrayAttr>("passthrough") : ArrayAttr();
  return attrs && llvm::any_of(attrs, [](Attribute a) {
           auto s = dyn_cast<StringAttr>(a);
           return s && s.getValue() == "noreturn";
         });
}

/// Whether `from` reaches `to` in one pass through the code: never
/// entering a block that dominates `from` (that edge goes round a loop).
bool reachesForward(Block *from, Block *to, DominanceInfo &dom) {
  SmallVector<Block *> work{from};
  llvm::SmallPtrSet<Block *, 16> seen{from};
  while (!work.empty()) {
    Block *b = work.pop_back_val();
    if (b == to)
      return true;
    for (Block *s : b->getSuccessors())
      if (!dom.dominates(s, from) && seen.insert(s).second)
        work.push_back(s);
  }
  return false;
}

/// The branch that replaces `unreachable` after a call that never returns
/// (an assert's failure path: `if (!(a && b)) __assert_fail(...)`): to the
/// block where a predecessor's other branch goes on (the assert passed),
/// one that does not lead back to this block, with poison for its
/// arguments. The path is never taken past the call; as a branch it keeps
/// the loop around it single-exit (an scf.for, which knobs can perforate,
/// instead of an scf.while leaving through a function return), and LLVM,
/// told the callee is noreturn, makes it unreachable again. False when the
/// block has no such predecessor.
bool branchPastNoReturnCall(OpBuilder &b, Operation *unreachable,
                            func::FuncOp fn) {
  auto call = dyn_cast_or_null<LLVM::CallOp>(unreachable->getPrevNode());
  Block *block = unreachable->getBlock();
  auto module = fn->getParentOfType<ModuleOp>();
  if (!call || !call.getCallee() ||
      !isNoReturn(module.lookupSymbol(*call.getCallee())))
    return false;
  DominanceInfo dom(fn);
  for (Block *pred : block->getPredecessors()) {
    Operation *branch = pred->getTerminator();
    if (branch->getNumSuccessors() != 2)
      continue;
    for (Block *other : branch->getSuccessors()) {
      if (other == block || reachesForward(other, block, dom))
        continue;
      SmallVector<Value> poison;
      for (BlockArgument arg : other->getArguments())
        poison.push_back(ub::PoisonOp::create(b, unreachable->getLoc(),
                                              arg.getType()));
      cf::BranchOp::create(b, unreachable->getLoc(), other, poison);
      return true;
    }
  }
  return false;
}

/// Branches and returns of a raised function.
bool raiseTerminator(OpBuilder &b, Operation *op, func::FuncOp fn) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto br = dyn_cast<LLVM::BrOp>(op)) {
    cf::BranchOp::create(b, loc, br.getDest(), br.getDestOperands());
  } else if (auto br = dyn_cast<LLVM::CondBrOp>(op)) {
    cf::CondBranchOp::create(b, loc, br.getCondition(), br.getTrueDest(),
                             br.getTrueDestOperands(), br.getFalseDest(),
                             br.getFalseDestOperands());
  } else if (auto sw = dyn_cast<LLVM::SwitchOp>(op)) {
    SmallVector<ValueRange> caseOperands;
    for (unsigned i = 0, e = sw.getCaseDestinations().size(); i < e; ++i)
      caseOperands.push_back(sw.getCaseOperands(i));
    DenseIntElementsAttr values;
    if (auto v = sw.getCaseValues())
      values = *v;
    cf::SwitchOp::create(b, loc, sw.getValue(), sw.getDefaultDestination(),
                         sw.getDefaultOperands(), values,
                         sw.getCaseDestinations(), caseOperands);
  } else if (auto ret = dyn_cast<LLVM::ReturnOp>(op)) {
    func::ReturnOp::create(b, loc, ret.getOperands());
  } else if (isa<LLVM::UnreachableOp>(op) &&
             branchPastNoReturnCall(b, op, fn)) {
  } else if (isa<LLVM::UnreachableOp>(op)) {
    SmallVector<Value> poison;
    for (Type t : fn.getResultTypes())
      poison.push_back(ub::PoisonOp::create(b, loc, t));
    func::ReturnOp::create(b, loc, poison);
  } else {
    return false;
  }
  op->erase();
  return true;
}

struct RaiseLLVMToStdPass
    : approx::impl::RaiseLLVMToStdBase<RaiseLLVMToStdPass> {
  void runOnOperation() override;
};

/// The functions of a module used other than as the callee of a direct
/// call (addressof, dso_local_equivalent, the global constructors and
/// destructors of C++ static initialisers: all need an llvm.func), and
/// those whose labels' addresses are taken (computed goto).
struct Uses {
  llvm::StringSet<> addressTaken, labelsTaken;
};

FailureOr<Uses> usesOf(ModuleOp module) {
  auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses)
    return failure();
  Uses u;
  for (const SymbolTable::SymbolUse &use : *uses) {
    StringRef name = use.getSymbolRef().getRootReference();
    if (isa<LLVM::BlockAddressOp>(use.getUser()))
      u.labelsTaken.insert(name);
    else if (!isa<LLVM::CallOp, LLVM::InvokeOp>(use.getUser()))
      u.addressTaken.insert(name);
  }
  return u;
}

/// Why `f` stays an llvm.func ("" when it is raised).
std::string notRaised(LLVM::LLVMFuncOp f, const Uses &u) {
  if (f.isVarArg())
    return "it is variadic";
  if (u.labelsTaken.contains(f.getName()) ||
      f.walk([](LLVM::IndirectBrOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return "it uses computed goto (the address of a label)";
  if (u.addressTaken.contains(f.getName()))
    return "its address is taken (it is used other than as the callee of a "
           "direct call)";
  if (f.getCConv() != LLVM::CConv::C)
    return "its calling convention is not C's";
  if (f.walk([](Operation *op) {
         return isa<LLVM::InvokeOp, LLVM::LandingpadOp, LLVM::ResumeOp>(op)
                    ? WalkResult::interrupt()
                    : WalkResult::advance();
       }).wasInterrupted())
    return "it uses C++ exceptions (try, or calls that may throw)";
  return "";
}

} // namespace

std::string approx::whyNotRaised(ModuleOp module, llvm::StringRef name) {
  auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!f)
    return module.lookupSymbol<func::FuncOp>(name) ? "" : "it is not emitted";
  FailureOr<Uses> u = usesOf(module);
  return failed(u) ? "its uses cannot be enumerated" : notRaised(f, *u);
}

void RaiseLLVMToStdPass::runOnOperation() {
  ModuleOp module = getOperation();
  OpBuilder b(&getContext());

  FailureOr<Uses> uses = usesOf(module);
  if (failed(uses)) {
    module.emitError("cannot enumerate the uses of the module's functions");
    return signalPassFailure();
  }

  llvm::StringSet<> raised;
  SmallVector<LLVM::LLVMFuncOp> candidates(module.getOps<LLVM::LLVMFuncOp>());
  for (LLVM::LLVMFuncOp f : candidates) {
    if (!notRaised(f, *uses).empty())
      continue;
    LLVM::LLVMFunctionType llvmType = f.getFunctionType();
    SmallVector<Type> results;
    if (!isa<LLVM::LLVMVoidType>(llvmType.getReturnType()))
      results.push_back(llvmType.getReturnType());
    b.setInsertionPoint(f);
    auto fn = func::FuncOp::create(
        b, f.getLoc(), f.getName(),
        FunctionType::get(&getContext(), llvmType.getParams(), results));
    if (f.isExternal()) {
      fn.setPrivate();
    } else if (f.getLinkage() != LLVM::Linkage::External) {
      // Kept through func-to-llvm: static functions stay internal, and C++
      // inline functions and template instances linkonce_odr (as external
      // definitions, two files that include them would not link). An
      // available_externally copy (an extern template's member) becomes
      // linkonce_odr: its definition is emitted, as it was before, since
      // the library may not export it (libstdc++'s _M_use_local_data at
      // -O0), yet merges with other files' copies.
      LLVM::Linkage linkage = f.getLinkage() == LLVM::Linkage::AvailableExternally
                                  ? LLVM::Linkage::LinkonceODR
                                  : f.getLinkage();
      fn->setAttr("llvm.linkage", LLVM::LinkageAttr::get(&getContext(), linkage));
    }
    // What the source language says of the function is kept for LLVM:
    // `noreturn` (branchPastNoReturnCall relies on it), C++'s forward
    // progress (`mustprogress`: without it LLVM cannot delete a call whose
    // result is unused, such as a state function only a knob reads, since
    // it might not return) and `nounwind` (the approximations keep all
    // three true), and the directive `noinline`.
    SmallVector<Attribute> kept;
    if (auto passthrough = f->getAttrOfType<ArrayAttr>("passthrough"))
      for (Attribute a : passthrough)
        if (auto s = dyn_cast<StringAttr>(a);
            s && (s.getValue() == "noreturn" || s.getValue() == "mustprogress"))
          kept.push_back(s);
    if (f.getNoUnwind())
      kept.push_back(b.getStringAttr("nounwind"));
    // (func.func's own `no_inline` would not reach LLVM: func-to-llvm drops
    // func.func's inherent attributes.)
    if (f.getNoInline())
      kept.push_back(b.getStringAttr("noinline"));
    if (!kept.empty())
      fn->setAttr("passthrough", b.getArrayAttr(kept));
    // So are the instruction set a function is compiled for (its
    // `__attribute__((target))`: without it an AVX2 path is built for
    // SSE2) and `always_inline`; func-to-llvm passes them on.
    auto keep = [&](std::initializer_list<StringAttr> names) {
      for (StringAttr name : names)
        if (Attribute a = f->getAttr(name))
          fn->setAttr(name, a);
    };
    keep({f.getTargetCpuAttrName(), f.getTargetFeaturesAttrName(),
          f.getTuneCpuAttrName(), f.getAlwaysInlineAttrName()});
    // A declaration's memory effects and `willreturn` (a `const` or `pure`
    // function of a header, such as glibc's __ctype_b_loc behind isalpha):
    // without them LLVM cannot hoist its calls out of loops. Only
    // declarations: a definition's body is approximated here, and in a
    // runtime-table build it reads the configuration, which no `const`
    // allows.
    if (f.isExternal())
      keep({f.getMemoryEffectsAttrName(), f.getWillReturnAttrName()});
    // The parameters' and the result's attributes are the function's ABI
    // (byval and sret structures, signext/zeroext narrow integers: without
    // them a caller compiled by another compiler passes a structure where
    // the function reads a pointer) and what the source promises LLVM
    // (noundef: without it the SLP vectorizer made jmeint 1.36x slower
    // than clang's build). func-to-llvm passes them back to the llvm.func.
    if (ArrayAttr args = f.getArgAttrsAttr())
      fn.setAllArgAttrs(args);
    if (ArrayAttr res = f.getResAttrsAttr(); res && !results.empty())
      fn.setAllResultAttrs(res);
    fn.getBody().takeBody(f.getBody());
    f.erase();
    raised.insert(fn.getName());

    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (op != fn)
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (!raiseTerminator(b, op, fn))
        raiseArith(b, op);
  }

  // Direct calls to raised functions, wherever they are.
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    if (auto callee = call.getCallee(); callee && raised.contains(*callee))
      calls.push_back(call);
  });
  for (LLVM::CallOp call : calls) {
    b.setInsertionPoint(call);
    auto repl = func::CallOp::create(b, call.getLoc(), *call.getCallee(),
                                     call.getResultTypes(),
                                     call.getArgOperands());
    call->replaceAllUsesWith(repl);
    call.erase();
  }
}
