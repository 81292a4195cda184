//===- OutlineLoops.cpp - annotated loops out of functions with EH --------===//
#include "OutlineLoops.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

bool approx::usesExceptions(const Function &f) {
  for (const BasicBlock &bb : f)
    for (const Instruction &i : bb)
      if (isa<InvokeInst, LandingPadInst, ResumeInst>(i))
        return true;
  return false;
}

namespace {

/// `g` (the extracted loop) with `f`'s arguments appended to its
/// parameters; `g` and its call are replaced. Returns the new call.
CallInst *appendArguments(Function *g, Function *f, CallInst *call) {
  SmallVector<Type *> params(g->getFunctionType()->params());
  for (Argument &a : f->args())
    params.push_back(a.getType());
  auto *type = FunctionType::get(g->getReturnType(), params, false);
  Function *h = Function::Create(type, g->getLinkage(), "", g->getParent());
  h->takeName(g);
  ValueToValueMapTy map;
  for (auto [from, to] : llvm::zip(g->args(), h->args())) {
    to.setName(from.getName());
    map[&from] = &to;
  }
  for (unsigned i = 0; i < f->arg_size(); ++i)
    h->getArg(g->arg_size() + i)->setName(f->getArg(i)->getName());
  SmallVector<ReturnInst *> returns;
  CloneFunctionInto(h, g, map, CloneFunctionChangeType::LocalChangesOnly,
                    returns);
  SmallVector<Value *> args(call->args());
  for (Argument &a : f->args())
    args.push_back(&a);
  auto *repl = CallInst::Create(h, args, "", call->getIterator());
  repl->setDebugLoc(call->getDebugLoc());
  repl->takeName(call);
  call->replaceAllUsesWith(repl);
  call->eraseFromParent();
  g->eraseFromParent();
  return repl;
}

} // namespace

approx::OutlinedLoop approx::outlineLoop(Module &module, StringRef function,
                                         unsigned line) {
  OutlinedLoop out;
  Function *f = module.getFunction(function);
  if (!f || f->isDeclaration()) {
    out.whyNot = "it is not emitted";
    return out;
  }
  DominatorTree dt(*f);
  LoopInfo li(dt);
  Loop *loop = nullptr;
  for (Loop *l : li.getLoopsInPreorder())
    if (DebugLoc at = l->getStartLoc(); at && at.getLine() == line) {
      loop = l;
      break;
    }
  if (!loop) {
    out.whyNot = "the function has no loop at line " + std::to_string(line) +
                 " left (a loop inside another annotated loop of a function "
                 "with exception handling is not supported)";
    return out;
  }
  // Calls that may throw unwind out of the loop, to one place whose phis
  // receive the same value from each (defined before the loop).
  BasicBlock *unwind = nullptr;
  SmallVector<InvokeInst *> invokes;
  for (BasicBlock *bb : loop->blocks()) {
    if (bb->isEHPad()) {
      out.whyNot = "the loop has exception handling of its own (a try in "
                   "its body): move the body into a function";
      return out;
    }
    if (auto *ii = dyn_cast<InvokeInst>(bb->getTerminator())) {
      if (unwind && ii->getUnwindDest() != unwind) {
        out.whyNot = "its calls that may throw unwind to different cleanups";
        return out;
      }
      unwind = ii->getUnwindDest();
      invokes.push_back(ii);
    }
  }
  SmallVector<std::pair<PHINode *, Value *>> incoming;
  if (unwind)
    for (PHINode &phi : unwind->phis()) {
      Value *v = phi.getIncomingValueForBlock(invokes.front()->getParent());
      auto *def = dyn_cast<Instruction>(v);
      if (llvm::any_of(invokes, [&](InvokeInst *ii) {
            return phi.getIncomingValueForBlock(ii->getParent()) != v;
          }) ||
          (def && loop->contains(def))) {
        out.whyNot = "its cleanup depends on the iteration it was left in";
        return out;
      }
      incoming.push_back({&phi, v});
    }
  SmallVector<BasicBlock *> blocks(loop->blocks());
  for (InvokeInst *ii : invokes)
    changeToCall(ii);
  dt.recalculate(*f);
  CodeExtractor extractor(blocks, &dt, /*AggregateArgs=*/false, nullptr,
                          nullptr, nullptr, /*AllowVarArgs=*/false,
                          /*AllowAlloca=*/false, nullptr,
                          "approx.line" + std::to_string(line));
  CodeExtractorAnalysisCache cache(*f);
  Function *g = extractor.isEligible() ? extractor.extractCodeRegion(cache)
                                       : nullptr;
  if (!g || !g->hasOneUse() || !isa<CallInst>(*g->user_begin())) {
    // The invokes are calls now: the module must not be compiled (the
    // annotation on this loop fails the build).
    out.whyNot = "LLVM's code extractor cannot move the loop";
    return out;
  }
  g->setPersonalityFn(nullptr);
  unsigned inputs = g->arg_size();
  CallInst *call = appendArguments(g, f, cast<CallInst>(*g->user_begin()));
  out.symbol = call->getCalledFunction()->getName().str();
  out.inputs = inputs;
  if (unwind) {
    BasicBlock *at = call->getParent();
    changeToInvokeAndSplitBasicBlock(call, unwind);
    for (auto [phi, v] : incoming)
      phi->addIncoming(v, at);
  }
  return out;
}
