//===- TransformSupport.cpp - helpers of the transform patterns -----------===//
#include "TransformSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace approx {

Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

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

Value divisor(OpBuilder &b, Location loc, const KnobValue &k) {
  if (k.constant)
    return constI32(b, loc, std::max(*k.constant, 1));
  return arith::MaxSIOp::create(b, loc, k.value, constI32(b, loc, 1));
}

Value emptyLike(OpBuilder &b, Location loc, Value like, Type elem) {
  return tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, like),
                                 elem);
}

Value emptyLike(OpBuilder &b, Location loc, Value like, Type elem,
                ArrayRef<unsigned> dims) {
  SmallVector<OpFoldResult> all = tensor::getMixedSizes(b, loc, like);
  SmallVector<OpFoldResult> sizes;
  for (unsigned d : dims)
    sizes.push_back(all[d]);
  return tensor::EmptyOp::create(b, loc, sizes, elem);
}

Value filled(OpBuilder &b, Location loc, Value value, Value init) {
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
      .getResult(0);
}

FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter,
                                       linalg::LinalgOp op, StringRef kind) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return op->emitOpError(kind) << " cannot generalize this op";
  return generic;
}

Operation *findFirstAfter(KnobOp knob, Operation *mgmt,
                          function_ref<bool(Operation *)> pred) {
  for (Operation *top : regionOps(knob, mgmt)) {
    Operation *found = nullptr;
    top->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!pred(op))
        return WalkResult::advance();
      found = op;
      return WalkResult::interrupt();
    });
    if (found)
      return found;
  }
  return nullptr;
}

FailureOr<scf::IndexSwitchOp> switchOnCandidates(
    OpBuilder &b, Location loc, const KnobValue &k, TypeRange types,
    function_ref<FailureOr<SmallVector<Value>>(OpBuilder &, int32_t)>
        buildCase) {
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), k.value);
  SmallVector<int64_t> cases(k.candidates.begin(), k.candidates.end());
  auto sw = scf::IndexSwitchOp::create(b, loc, types, index, cases,
                                       cases.size());
  for (auto [region, c] : llvm::zip(sw.getCaseRegions(), k.candidates)) {
    OpBuilder rb = OpBuilder::atBlockBegin(&region.emplaceBlock());
    FailureOr<SmallVector<Value>> values = buildCase(rb, c);
    if (failed(values))
      return failure();
    scf::YieldOp::create(rb, loc, *values);
  }
  sw.getDefaultRegion().emplaceBlock();
  return sw;
}

SmallVector<Operation *> regionOps(KnobOp knob, Operation *mgmt) {
  SmallVector<Operation *> ops;
  for (Operation *op = mgmt->getNextNode(); op; op = op->getNextNode())
    if (!isa<SafetyContractOp, YieldOp>(op))
      ops.push_back(op);
  return ops;
}

FailureOr<KnobValue> knobValue(RewriterBase &rewriter, TransformOp t) {
  KnobValue k;
  SmallVector<int32_t> all;
  if (auto values = t.getDecisionValues())
    llvm::append_range(all, *values);
  if (t.getValue()) {
    if (!t.getDecisionValues() && !isLoopKind(t.getTransformType()))
      return t.emitOpError("a ")
             << stringifyTransformKind(t.getTransformType())
             << " driven by an SSA value needs decision_values: the values "
                "it may take decide the variants or branches to generate";
    k.value = t.getValue();
  } else {
    int32_t v = int32_t(t.getKnobValAttr().getInt());
    all.push_back(v);
    rewriter.setInsertionPoint(t);
    if (auto name = t.getRuntimeParamAttr()) {
      k.value = RuntimeParamOp::create(rewriter, t.getLoc(),
                                       rewriter.getI32Type(), name,
                                       rewriter.getI32IntegerAttr(v));
    } else {
      k.constant = v;
      all.assign({v});
      k.value = constI32(rewriter, t.getLoc(), v);
    }
  }
  llvm::sort(all);
  for (int32_t v :
       llvm::make_range(all.begin(), std::unique(all.begin(), all.end())))
    if (v != 0)
      k.candidates.push_back(v);
  return k;
}

} // namespace approx
