//===- Common.cpp - helpers shared by the approx passes -------------------===//
#include "Common.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace approx {

LogicalResult verifyKnobsUnique(ModuleOp module) {
  llvm::DenseMap<int32_t, KnobOp> ids;
  llvm::StringMap<KnobOp> names;
  bool ok = true;
  module.walk([&](KnobOp knob) {
    auto [idIt, newId] = ids.try_emplace(knob.getId(), knob);
    if (!newId) {
      knob.emitOpError("id ") << knob.getId() << " is used by another knob";
      idIt->second.emitRemark("the other knob is here");
      ok = false;
    }
    auto [nameIt, newName] = names.try_emplace(knob.getName(), knob);
    if (!newName) {
      knob.emitOpError("name '")
          << knob.getName()
          << "' is used by another knob; give each knob of a function a "
             "distinct knob_name";
      nameIt->second.emitRemark("the other knob is here");
      ok = false;
    }
  });
  return success(ok);
}

static void collectLoopsIn(Operation *op, SmallVectorImpl<Operation *> &out) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &child : block) {
        if (isa<scf::ForOp, scf::WhileOp>(child))
          out.push_back(&child);
        else
          collectLoopsIn(&child, out);
      }
}

SmallVector<Operation *> collectChildLoops(Operation *root) {
  SmallVector<Operation *> out;
  collectLoopsIn(root, out);
  return out;
}

SmallVector<KnobOp> collectKnobs(ModuleOp module) {
  SmallVector<KnobOp> knobs;
  module.walk<WalkOrder::PostOrder>([&](KnobOp k) { knobs.push_back(k); });
  return knobs;
}

KnobOp createKnob(OpBuilder &b, Location loc, TypeRange types,
                  Attribute properties) {
  OperationState state(loc, KnobOp::getOperationName());
  state.addTypes(types);
  state.propertiesAttr = properties;
  state.addRegion();
  return cast<KnobOp>(b.create(state));
}

KnobOp wrapInKnob(Operation *op, Attribute properties) {
  OpBuilder b(op);
  KnobOp knob = createKnob(b, op->getLoc(), op->getResultTypes(), properties);
  Block *body = b.createBlock(&knob.getBody());
  op->replaceAllUsesWith(knob.getResults());
  op->moveBefore(body, body->end());
  b.setInsertionPointToEnd(body);
  YieldOp::create(b, op->getLoc(), op->getResults());
  return knob;
}

int32_t nextKnobId(ModuleOp module) {
  int32_t next = 0;
  module.walk(
      [&](KnobOp knob) { next = std::max(next, int32_t(knob.getId()) + 1); });
  return next;
}

void inlineKnob(KnobOp knob) {
  Block &body = knob.getBody().front();
  Operation *yield = body.getTerminator();
  knob->replaceAllUsesWith(yield->getOperands());
  yield->erase();
  knob->getBlock()->getOperations().splice(Block::iterator(knob),
                                           body.getOperations());
  knob.erase();
}

void eraseUnusedStateCall(Value state) {
  if (Operation *def = state.getDefiningOp())
    if (isa<func::CallOp>(def) && def->use_empty())
      def->erase();
}

} // namespace approx
