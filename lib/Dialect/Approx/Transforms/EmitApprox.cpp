//===- EmitApprox.cpp - annotations -> approx.knob ------------------------===//
#include "Common.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/IR/SourceNames.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Support/ParamNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <map>

namespace approx {
#define GEN_PASS_DEF_EMITAPPROX
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

/// The annotations that make one knob.
struct KnobRequest {
  std::string funcName;
  std::optional<std::string> knobName;
  SmallVector<int64_t> loopPath;
  Operation *transform = nullptr; // decision_tree or static_transform
  SafetyContractAnnotationOp contract;
  Operation *first = nullptr;     // for locations and ordering

  /// Named after the function's source name (SourceNames.h).
  std::string knobNameAttr(ModuleOp module) const {
    return names::knob(knobFunctionName(module, funcName),
                       knobName ? std::optional<StringRef>(*knobName)
                                : std::nullopt);
  }
};

template <typename OpT>
void describeTarget(OpT op, std::string &key, std::string &func,
                    std::optional<std::string> &knob,
                    SmallVector<int64_t> &path) {
  func = op.getFuncName().str();
  if (auto k = op.getKnobName())
    knob = k->str();
  if (auto p = op.getLoopPath())
    path.assign(p->begin(), p->end());
  key = func + "\x1f" + knob.value_or("") + "\x1f";
  for (int64_t i : path)
    key += std::to_string(i) + ",";
}

std::string formatPath(ArrayRef<int64_t> path) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(path))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "]";
}

struct EmitApproxPass : approx::impl::EmitApproxBase<EmitApproxPass> {
  void runOnOperation() override;

  LogicalResult outline(ConvertToCallAnnotationOp ann, SymbolTable &symbols);
  FailureOr<Operation *> resolveLoop(const KnobRequest &req, func::FuncOp fn);
  void wrapBody(func::FuncOp fn, KnobOp proto);
};

} // namespace

LogicalResult EmitApproxPass::outline(ConvertToCallAnnotationOp ann,
                                      SymbolTable &symbols) {
  auto fn = symbols.lookup<func::FuncOp>(ann.getFuncName());
  if (!fn)
    return ann.emitOpError("convert_to_call needs a func.func named '")
           << ann.getFuncName() << "'";
  std::string exactName = ("__approx_exact_" + ann.getFuncName()).str();
  if (symbols.lookup(exactName))
    return ann.emitOpError("cannot outline '")
           << ann.getFuncName() << "': symbol '" << exactName
           << "' already exists";
  OpBuilder b(fn);
  auto exact = cast<func::FuncOp>(b.clone(*fn));
  exact.setSymName(exactName);
  exact.setPrivate();
  symbols.insert(exact);
  fn.getBody().getBlocks().clear();
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  auto call = func::CallOp::create(b, fn.getLoc(), exact,
                                   entry->getArguments());
  func::ReturnOp::create(b, fn.getLoc(), call.getResults());
  return success();
}

FailureOr<Operation *> EmitApproxPass::resolveLoop(const KnobRequest &req,
                                                   func::FuncOp fn) {
  Operation *current = fn;
  for (auto [depth, index] : llvm::enumerate(req.loopPath)) {
    SmallVector<Operation *> loops = collectChildLoops(current);
    if (index >= int64_t(loops.size())) {
      InFlightDiagnostic diag =
          req.first->emitOpError("loop_path ")
          << formatPath(req.loopPath) << " selects loop " << index
          << " at depth " << depth << " of '" << req.funcName << "', but ";
      if (loops.empty())
        diag << "there is no scf.for/scf.while loop there";
      else
        diag << "there are only " << loops.size() << " loop(s) there";
      return failure();
    }
    current = loops[index];
  }
  return current;
}

void EmitApproxPass::wrapBody(func::FuncOp fn, KnobOp proto) {
  Region &region = fn.getBody();
  TypeRange resultTypes = fn.getResultTypes();
  Location loc = fn.getLoc();

  if (region.hasOneBlock()) {
    Block &entry = region.front();
    Operation *ret = entry.getTerminator();
    OpBuilder b(ret);
    KnobOp knob =
        createKnob(b, loc, resultTypes, proto->getPropertiesAsAttribute());
    Block *body = b.createBlock(&knob.getBody());
    body->getOperations().splice(body->end(), entry.getOperations(),
                                 entry.begin(), Block::iterator(knob));
    b.setInsertionPointToEnd(body);
    YieldOp::create(b, ret->getLoc(), ret->getOperands());
    ret->setOperands(knob.getResults());
    return;
  }

  // Several blocks: keep the CFG inside an scf.execute_region in the knob.
  Block *oldEntry = &region.front();
  auto *newEntry = new Block();
  for (BlockArgument arg : oldEntry->getArguments())
    newEntry->addArgument(arg.getType(), arg.getLoc());
  region.push_front(newEntry);
  for (auto [o, n] :
       llvm::zip(oldEntry->getArguments(), newEntry->getArguments()))
    o.replaceAllUsesWith(n);
  oldEntry->eraseArguments(0, oldEntry->getNumArguments());

  OpBuilder b = OpBuilder::atBlockEnd(newEntry);
  KnobOp knob =
      createKnob(b, loc, resultTypes, proto->getPropertiesAsAttribute());
  Block *body = b.createBlock(&knob.getBody());
  auto exec = scf::ExecuteRegionOp::create(b, loc, resultTypes);
  exec.getRegion().getBlocks().splice(exec.getRegion().end(),
                                      region.getBlocks(),
                                      std::next(region.begin()), region.end());
  for (Block &block : exec.getRegion()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    OpBuilder rb(ret);
    scf::YieldOp::create(rb, ret.getLoc(), ret.getOperands());
    ret.erase();
  }
  b.setInsertionPointToEnd(body);
  YieldOp::create(b, loc, exec.getResults());
  b.setInsertionPointToEnd(newEntry);
  func::ReturnOp::create(b, loc, knob.getResults());
}

void EmitApproxPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  SymbolTable symbols(module);

  // Group the annotations by target, in order of appearance.
  llvm::MapVector<std::string, KnobRequest, std::map<std::string, unsigned>>
      requests;
  SmallVector<ConvertToCallAnnotationOp> outlines;
  SmallVector<Operation *> consumed;
  bool ok = true;

  auto requestFor = [&](auto op) -> KnobRequest & {
    std::string key, func;
    std::optional<std::string> knob;
    SmallVector<int64_t> path;
    describeTarget(op, key, func, knob, path);
    KnobRequest &req = requests[key];
    if (!req.first) {
      req.funcName = func;
      req.knobName = knob;
      req.loopPath = path;
      req.first = op;
    }
    return req;
  };

  for (Operation &op : module.getBody()->getOperations()) {
    if (auto ann = dyn_cast<ConvertToCallAnnotationOp>(op)) {
      outlines.push_back(ann);
      consumed.push_back(&op);
      continue;
    }
    if (auto ann = dyn_cast<SafetyContractAnnotationOp>(op)) {
      KnobRequest &req = requestFor(ann);
      if (req.contract) {
        ann.emitOpError("this knob already has a safety_contract annotation");
        ok = false;
      }
      req.contract = ann;
      consumed.push_back(&op);
      continue;
    }
    auto handleTransform = [&](auto ann) {
      KnobRequest &req = requestFor(ann);
      if (req.transform) {
        InFlightDiagnostic diag = ann.emitOpError(
            "this knob already has a transform annotation; a knob takes "
            "one decision_tree or static_transform (use knob_name or "
            "loop_path for another knob)");
        diag.attachNote(req.transform->getLoc()) << "first annotation here";
        ok = false;
      }
      req.transform = ann;
      consumed.push_back(ann);
    };
    if (auto ann = dyn_cast<DecisionTreeAnnotationOp>(op))
      handleTransform(ann);
    else if (auto ann = dyn_cast<StaticTransformAnnotationOp>(op))
      handleTransform(ann);
  }
  if (!ok)
    return signalPassFailure();

  // convert_to_call first: knobs then wrap the call.
  llvm::StringSet<> outlined;
  for (ConvertToCallAnnotationOp ann : outlines) {
    if (!outlined.insert(ann.getFuncName()).second) {
      ann.emitOpError("duplicate convert_to_call for '")
          << ann.getFuncName() << "'";
      return signalPassFailure();
    }
    for (auto &[key, req] : requests)
      if (req.funcName == ann.getFuncName() && !req.loopPath.empty()) {
        ann.emitOpError("convert_to_call cannot be combined with a loop_path "
                        "knob on the same function");
        return signalPassFailure();
      }
    if (failed(outline(ann, symbols)))
      return signalPassFailure();
  }

  // Validate requests and assign ids/names in order of appearance.
  llvm::StringMap<Operation *> names;
  // After the knobs already there (a transform script's, DESIGN §17).
  int32_t nextId = nextKnobId(module);
  struct Planned {
    KnobRequest *req;
    func::FuncOp fn;
    Operation *loop; // null: whole body
    KnobOp proto;
  };
  SmallVector<Planned> planned;
  OpBuilder protoBuilder(ctx);
  Block protoBlock;
  protoBuilder.setInsertionPointToEnd(&protoBlock);
  for (auto &[key, req] : requests) {
    if (!req.transform) {
      req.contract.emitOpError(
          "safety_contract has no transform to guard: add a decision_tree or "
          "static_transform annotation for the same function and knob");
      ok = false;
      continue;
    }
    auto fn = symbols.lookup<func::FuncOp>(req.funcName);
    if (!fn) {
      req.first->emitOpError("annotated function '")
          << req.funcName << "' must be a func.func";
      ok = false;
      continue;
    }
    std::string name = req.knobNameAttr(module);
    auto [it, fresh] = names.try_emplace(name, req.first);
    if (!fresh) {
      InFlightDiagnostic diag = req.first->emitOpError("knob name '")
                                << name << "' is already used; give each "
                                           "knob of a function a distinct "
                                           "knob_name";
      diag.attachNote(it->second->getLoc()) << "other knob annotated here";
      ok = false;
      continue;
    }
    Operation *loop = nullptr;
    if (!req.loopPath.empty()) {
      FailureOr<Operation *> l = resolveLoop(req, fn);
      if (failed(l)) {
        ok = false;
        continue;
      }
      loop = *l;
    }

    TransformKind type;
    StringRef kind;
    FlatSymbolRefAttr callee;
    if (auto dt = dyn_cast<DecisionTreeAnnotationOp>(req.transform)) {
      type = dt.getKind();
      kind = "decision_tree";
      if (auto c = dt.getCallee())
        callee = FlatSymbolRefAttr::get(ctx, *c);
    } else {
      auto st = cast<StaticTransformAnnotationOp>(req.transform);
      type = st.getKind();
      kind = "static_transform";
      if (auto c = st.getCallee())
        callee = FlatSymbolRefAttr::get(ctx, *c);
    }
    if (type == TransformKind::FuncSubstitute && loop && !callee) {
      req.transform->emitOpError(
          "func_substitute on a loop needs a 'callee' naming the function "
          "whose calls inside the loop are substituted");
      ok = false;
      continue;
    }
    NamedAttrList params;
    params.append(kind, req.transform->getPropertiesAsAttribute());
    if (req.contract)
      params.append("safety_contract",
                    req.contract->getPropertiesAsAttribute());
    auto proto = KnobOp::create(
        protoBuilder, req.first->getLoc(), TypeRange(),
        protoBuilder.getI32IntegerAttr(nextId++),
        protoBuilder.getStringAttr(name),
        protoBuilder.getArrayAttr({TransformKindAttr::get(ctx, type)}), callee,
        params.getDictionary(ctx), /*lowered=*/UnitAttr());
    planned.push_back({&req, fn, loop, proto});
  }
  if (!ok)
    return signalPassFailure();

  // Innermost targets first; the whole-body knob of a function goes last so
  // that it wraps the loop knobs.
  std::stable_sort(planned.begin(), planned.end(),
                   [](const Planned &a, const Planned &b) {
                     return a.req->loopPath.size() > b.req->loopPath.size();
                   });
  for (Planned &p : planned) {
    if (p.loop)
      wrapInKnob(p.loop, p.proto->getPropertiesAsAttribute());
    else
      wrapBody(p.fn, p.proto);
    p.proto->erase();
  }
  for (Operation *op : consumed)
    op->erase();
}
