//===- ApplyTransformScript.cpp - run and remove a module's script -------===//
#include "ConfigFile.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/ScheduleParams.h"
#include "approx/Dialect/Approx/Transforms/ApplyKind.h"
#include "approx/Dialect/Approx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"

namespace approx {
#define GEN_PASS_DEF_APPLYTRANSFORMSCRIPT
#include "approx/Dialect/Approx/Transforms/Passes.h.inc"
} // namespace approx

using namespace mlir;

namespace {

struct ApplyTransformScriptPass
    : approx::impl::ApplyTransformScriptBase<ApplyTransformScriptPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto entry = dyn_cast_or_null<transform::NamedSequenceOp>(
        SymbolTable::lookupSymbolIn(
            module, transform::TransformDialect::kTransformEntryPointSymbolName));
    if (!entry)
      return;
    if (!configPath.empty() && failed(resolveChoices(module)))
      return signalPassFailure();
    auto mode = StringAttr::get(&getContext(), approx::kTransformKnobsAttrName);
    bool wasSet = module->hasAttr(mode);
    if (knobs)
      module->setAttr(mode, UnitAttr::get(&getContext()));
    LogicalResult applied = transform::applyTransformNamedSequence(
        module, entry, ModuleOp(), transform::TransformOptions());
    if (!wasSet)
      module->removeAttr(mode);
    if (failed(applied))
      return signalPassFailure();
    for (Operation &op : llvm::make_early_inc_range(module.getOps()))
      if (isa_and_nonnull<transform::TransformDialect>(op.getDialect()))
        op.erase();
    module->removeAttr(transform::TransformDialect::kWithNamedSequenceAttrName);
  }

  /// Resolves the script's choices named in the configuration and records
  /// them in approx.schedule.
  LogicalResult resolveChoices(ModuleOp module) {
    FailureOr<approx::ConfigFile> config =
        approx::readConfig(&getContext(), configPath);
    if (failed(config))
      return failure();
    auto chosen = approx::selectSchedules(
        module,
        [&](StringRef name) -> std::optional<int64_t> {
          auto it = config->values.find(name);
          if (it == config->values.end())
            return std::nullopt;
          return it->second;
        },
        [&](const approx::ScheduleParam &p) {
          return config->locate(&getContext(), p.name);
        });
    if (failed(chosen))
      return failure();
    NamedAttrList applied;
    Builder b(&getContext());
    for (const auto &[name, value] : *chosen)
      applied.append(name, b.getI64IntegerAttr(value));
    if (!applied.empty())
      module->setAttr(approx::kAppliedScheduleAttrName,
                      applied.getDictionary(&getContext()));
    return success();
  }
};

} // namespace
