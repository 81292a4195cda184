//===- ConfigApprox.cpp - apply a knob configuration ----------------------===//
#include "Common.h"
#include "ConfigFile.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"
#include "approx/Dialect/Approx/Transforms/ScheduleParams.h"
#include "approx/Support/ParamHint.h"
#include "approx/Support/ParamNames.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

namespace approx {
#define GEN_PASS_DEF_CONFIGAPPROX
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;
using namespace approx;

namespace {

struct ConfigApproxPass : approx::impl::ConfigApproxBase<ConfigApproxPass> {
  using Base::Base;
  void runOnOperation() override;

  std::optional<ConfigFile> config;
  llvm::StringSet<> used;
  SmallVector<std::string> known;

  /// The configured value of `name`, or `current`.
  int32_t lookup(const std::string &name, int32_t current) {
    known.push_back(name);
    if (!config)
      return current;
    auto it = config->values.find(name);
    if (it == config->values.end())
      return current;
    used.insert(name);
    return int32_t(it->second);
  }

  LogicalResult configure(DecisionTreeOp dt, KnobOp knob);
  LogicalResult configure(TransformOp t, KnobOp knob);
};

} // namespace

LogicalResult ConfigApproxPass::configure(DecisionTreeOp dt, KnobOp knob) {
  std::string prefix = knob.getName().str();
  OpBuilder b(dt);
  if (exact) {
    // The exact program: no state evaluation, knob value 0.
    Value state = dt.getState();
    TransformOp::create(b, dt.getLoc(), Value(), dt.getTransformTypeAttr(),
                        b.getI32IntegerAttr(0), DenseI32ArrayAttr(),
                        StringAttr());
    dt.erase();
    eraseUnusedStateCall(state);
    return success();
  }
  SmallVector<int32_t> thresholds(dt.getThresholds());
  SmallVector<int32_t> decisions(dt.getDecisions());
  SmallVector<std::string> paramNames;
  for (auto [i, t] : llvm::enumerate(thresholds)) {
    paramNames.push_back(names::threshold(prefix, i));
    t = lookup(paramNames.back(), t);
  }
  for (auto [j, d] : llvm::enumerate(decisions)) {
    paramNames.push_back(names::decision(prefix, j));
    d = lookup(paramNames.back(), d);
  }
  dt.setThresholds(thresholds);
  dt.setDecisions(decisions);
  if (mode == "runtime") {
    SmallVector<StringRef> refs(paramNames.begin(), paramNames.end());
    dt.setRuntimeParamsAttr(b.getStrArrayAttr(refs));
  }
  if (failed(verifyDecisionTreeParams(dt, thresholds, decisions,
                                      dt.getThresholdsLowers(),
                                      dt.getThresholdsUppers(),
                                      dt.getDecisionValues()))) {
    if (config)
      knob.emitRemark("after applying configuration '") << config->path << "'";
    return failure();
  }
  return success();
}

LogicalResult ConfigApproxPass::configure(TransformOp t, KnobOp knob) {
  if (t.getValue())
    return success(); // already driven by an SSA value
  std::string name = names::knobVal(knob.getName());
  int32_t current = int32_t(t.getKnobValAttr().getInt());
  int32_t v = exact ? 0 : lookup(name, current);
  OpBuilder b(t);
  t.setKnobValAttr(b.getI32IntegerAttr(v));
  if (exact)
    t.removeDecisionValuesAttr();
  if (mode == "runtime" && !exact)
    t.setRuntimeParamAttr(b.getStringAttr(name));
  if (failed(t.verify())) {
    if (config)
      knob.emitRemark("after applying configuration '") << config->path << "'";
    return failure();
  }
  return success();
}

void ConfigApproxPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (mode != "baked" && mode != "runtime") {
    module.emitError("config-approx: mode must be 'baked' or 'runtime', got '")
        << mode << "'";
    return signalPassFailure();
  }
  if (exact && !configPath.empty()) {
    module.emitError("config-approx: 'exact' and 'config' exclude each other");
    return signalPassFailure();
  }
  if (failed(verifyKnobsUnique(module)))
    return signalPassFailure();
  if (!configPath.empty()) {
    FailureOr<ConfigFile> cfg = readConfig(ctx, configPath);
    if (failed(cfg))
      return signalPassFailure();
    config = std::move(*cfg);
  }
  // The schedule parameters apply-transform-script took from the
  // configuration are this program's parameters too.
  if (auto schedule =
          module->getAttrOfType<DictionaryAttr>(kAppliedScheduleAttrName)) {
    for (NamedAttribute entry : schedule) {
      known.push_back(entry.getName().str());
      used.insert(entry.getName());
    }
    module->removeAttr(kAppliedScheduleAttrName);
  }
  for (KnobOp knob : collectKnobs(module)) {
    Operation *mgmt = knob.getManagementOp();
    if (!mgmt) {
      knob.emitOpError("has no decision_tree or transform; run "
                       "emit-management before config-approx");
      return signalPassFailure();
    }
    // The exact program has nothing to guard.
    if (exact)
      if (Operation *contract = knob.getSafetyContract())
        contract->erase();
    LogicalResult r = success();
    if (auto dt = dyn_cast<DecisionTreeOp>(mgmt))
      r = configure(dt, knob);
    else
      r = configure(cast<TransformOp>(mgmt), knob);
    if (failed(r))
      return signalPassFailure();
  }
  if (!config || otherUnits)
    return;
  bool ok = true;
  for (const auto &entry : config->values) {
    if (used.contains(entry.getKey()))
      continue;
    InFlightDiagnostic diag =
        emitError(config->locate(ctx, entry.getKey()), "unknown parameter '")
        << entry.getKey() << "'"
        << names::didYouMean(entry.getKey().str(),
                             std::vector<std::string>(known.begin(), known.end()))
        << "; this program's parameters are: ";
    llvm::interleaveComma(known, diag);
    ok = false;
  }
  if (!ok)
    signalPassFailure();
}
