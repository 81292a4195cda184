//===- EmitManagement.cpp - knob params -> management ops -----------------===//
#include "Common.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace approx {
#define GEN_PASS_DEF_EMITMANAGEMENT
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

/// Typed access to one entry of a knob's params, with located errors.
struct ParamReader {
  KnobOp knob;
  DictionaryAttr dict;
  StringRef section;
  bool ok = true;

  template <typename AttrT> AttrT get(StringRef key, bool required = true) {
    Attribute a = dict.get(key);
    if (!a) {
      if (required) {
        knob.emitOpError("params.") << section << " lacks '" << key << "'";
        ok = false;
      }
      return {};
    }
    auto typed = dyn_cast<AttrT>(a);
    if (!typed) {
      knob.emitOpError("params.") << section << "." << key
                                  << " has the wrong attribute kind";
      ok = false;
    }
    return typed;
  }
};

struct EmitManagementPass
    : approx::impl::EmitManagementBase<EmitManagementPass> {
  void runOnOperation() override;
  LogicalResult emitDecisionTree(KnobOp knob, DictionaryAttr dict,
                                 OpBuilder &b);
  LogicalResult emitStatic(KnobOp knob, DictionaryAttr dict, OpBuilder &b);
  LogicalResult emitContract(KnobOp knob, DictionaryAttr dict, OpBuilder &b);

  /// One symbol table for the whole run (the pass adds no symbols): a fresh
  /// one per knob made the pass quadratic in the number of knobs.
  SymbolTableCollection *tables = nullptr;
};

} // namespace

LogicalResult EmitManagementPass::emitDecisionTree(KnobOp knob,
                                                   DictionaryAttr dict,
                                                   OpBuilder &b) {
  ParamReader r{knob, dict, "decision_tree"};
  auto type = r.get<StringAttr>("transform_type");
  auto stateFn = r.get<StringAttr>("state_function");
  auto indices = r.get<DenseI64ArrayAttr>("state_indices");
  auto thresholds = r.get<DenseI32ArrayAttr>("thresholds");
  auto decisions = r.get<DenseI32ArrayAttr>("decisions");
  auto lowers = r.get<DenseI32ArrayAttr>("thresholds_lowers", false);
  auto uppers = r.get<DenseI32ArrayAttr>("thresholds_uppers", false);
  auto values = r.get<DenseI32ArrayAttr>("decision_values", false);
  if (!r.ok)
    return failure();
  FailureOr<TransformKind> kind = parseTransformKind(knob, type.getValue());
  if (failed(kind))
    return failure();

  auto fn = knob->getParentOfType<func::FuncOp>();
  if (!fn)
    return knob.emitOpError("a decision-tree knob must be inside a func.func");
  auto resolved = resolveStateIndices(knob, indices.asArrayRef(),
                                      fn.getNumArguments());
  if (failed(resolved))
    return failure();
  FunctionOpInterface state =
      lookupFunction(*tables, knob, stateFn.getValue(), "state function");
  if (!state)
    return failure();
  SmallVector<Value> args;
  SmallVector<Type> argTypes;
  for (unsigned i : *resolved) {
    args.push_back(fn.getArgument(i));
    argTypes.push_back(fn.getArgument(i).getType());
  }
  if (failed(verifyFunctionType(knob, state, argTypes,
                                TypeRange(b.getI32Type()), "state function")))
    return failure();

  Location loc = knob.getLoc();
  auto call = func::CallOp::create(b, loc, stateFn.getValue(),
                                   TypeRange(b.getI32Type()), args);
  auto dt = DecisionTreeOp::create(
      b, loc, call.getResult(0), TransformKindAttr::get(b.getContext(), *kind),
      stateFn, indices, thresholds, decisions,
      lowers, uppers, values, /*runtime_params=*/ArrayAttr());
  return dt.verify();
}

LogicalResult EmitManagementPass::emitStatic(KnobOp knob, DictionaryAttr dict,
                                             OpBuilder &b) {
  ParamReader r{knob, dict, "static_transform"};
  auto type = r.get<StringAttr>("transform_type");
  auto val = r.get<IntegerAttr>("knob_val");
  auto values = r.get<DenseI32ArrayAttr>("decision_values", false);
  if (!r.ok)
    return failure();
  FailureOr<TransformKind> kind = parseTransformKind(knob, type.getValue());
  if (failed(kind))
    return failure();
  auto t = TransformOp::create(b, knob.getLoc(), Value(),
                               TransformKindAttr::get(b.getContext(), *kind),
                               b.getI32IntegerAttr(val.getInt()), values,
                               StringAttr());
  return t.verify();
}

LogicalResult EmitManagementPass::emitContract(KnobOp knob,
                                               DictionaryAttr dict,
                                               OpBuilder &b) {
  ParamReader r{knob, dict, "safety_contract"};
  auto checker = r.get<StringAttr>("checker");
  auto recover = r.get<StringAttr>("recover");
  if (!r.ok)
    return failure();
  auto c = SafetyContractOp::create(
      b, knob.getLoc(), FlatSymbolRefAttr::get(checker),
      FlatSymbolRefAttr::get(recover));
  return c.verifySymbolUses(*tables);
}

void EmitManagementPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection symbolTables;
  tables = &symbolTables;
  if (failed(verifyKnobsUnique(module)))
    return signalPassFailure();
  for (KnobOp knob : collectKnobs(module)) {
    DictionaryAttr params = knob.getParamsAttr();
    if (!params)
      continue;
    if (knob.getManagementOp()) {
      knob.emitOpError("has both params and a management op");
      return signalPassFailure();
    }
    OpBuilder b = OpBuilder::atBlockBegin(&knob.getBody().front());
    auto dt = params.getAs<DictionaryAttr>("decision_tree");
    auto st = params.getAs<DictionaryAttr>("static_transform");
    if (bool(dt) == bool(st)) {
      knob.emitOpError("params needs exactly one of 'decision_tree' and "
                       "'static_transform'");
      return signalPassFailure();
    }
    if (failed(dt ? emitDecisionTree(knob, dt, b) : emitStatic(knob, st, b)))
      return signalPassFailure();
    if (auto sc = params.getAs<DictionaryAttr>("safety_contract"))
      if (failed(emitContract(knob, sc, b)))
        return signalPassFailure();
    knob.removeParamsAttr();
  }
}
