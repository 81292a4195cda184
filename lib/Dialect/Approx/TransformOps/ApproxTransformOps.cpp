//===- ApproxTransformOps.cpp - transform.approx.* ops --------------------===//
//
// Thin: a kind's value range is verifyStaticKnobParams', the payload it
// takes payloadMismatch's and its rewrite applyKind's (the annotations'
// pattern), so an annotation and a transform script mean the same.
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/TransformOps/ApproxTransformOps.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/Transforms/ApplyKind.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <limits>

using namespace mlir;
using namespace approx;

/// `by 2` or `by %param`.
static ParseResult
parseKnobValue(OpAsmParser &parser, IntegerAttr &value,
               std::optional<OpAsmParser::UnresolvedOperand> &param) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult r = parser.parseOptionalOperand(operand);
  if (r.has_value()) {
    if (failed(*r))
      return failure();
    param = operand;
    return success();
  }
  int64_t v = 0;
  if (parser.parseInteger(v))
    return failure();
  value = parser.getBuilder().getI64IntegerAttr(v);
  return success();
}

static void printKnobValue(OpAsmPrinter &printer, Operation *,
                           IntegerAttr value, Value param) {
  if (param)
    printer << param;
  else
    printer << value.getInt();
}

#define GET_OP_CLASSES
#include "approx/Dialect/Approx/TransformOps/ApproxTransformOps.cpp.inc"

/// Checks a knob value of `kind` as the annotations' are; errors on `op`.
static LogicalResult verifyValue(Operation *op, TransformKind kind,
                                 int64_t v) {
  if (v > std::numeric_limits<int32_t>::max())
    return op->emitOpError("knob value ")
           << v << " does not fit in 32 bits";
  return verifyStaticKnobParams(op, kind, v, std::nullopt);
}

LogicalResult approx::detail::verifyKindOp(Operation *op, TransformKind kind,
                                           IntegerAttr value, Value param) {
  if (bool(value) == bool(param))
    return op->emitOpError("needs exactly one knob value: an integer or a "
                           "!transform.param");
  // A !transform.param<T> holds integers by upstream's rule; an any_param
  // is checked when the script runs.
  return value ? verifyValue(op, kind, value.getInt()) : success();
}

/// The values a tuner may give the knob: the options of the
/// transform.tune.knob the param comes from, when it lists integers.
static SmallVector<int32_t> tunerValues(Value param) {
  SmallVector<int32_t> values;
  auto knob = param ? param.getDefiningOp<mlir::transform::tune::KnobOp>()
                    : nullptr;
  auto options = knob ? dyn_cast<ArrayAttr>(knob.getOptions()) : nullptr;
  if (!options)
    return values;
  for (Attribute a : options) {
    auto i = dyn_cast<IntegerAttr>(a);
    if (!i || i.getInt() < 0 || i.getInt() > std::numeric_limits<int32_t>::max())
      return {};
    values.push_back(int32_t(i.getInt()));
  }
  return values;
}

DiagnosedSilenceableFailure approx::detail::applyKindOp(
    Operation *op, TransformKind kind, IntegerAttr value, Value param,
    Value target, mlir::transform::TransformState &state) {
  int64_t v;
  if (value) {
    v = value.getInt();
  } else {
    ArrayRef<Attribute> held = state.getParams(param);
    auto i = held.size() == 1 ? dyn_cast<IntegerAttr>(held.front()) : nullptr;
    if (!i) {
      DiagnosedDefiniteFailure diag = emitDefiniteFailure(op)
                                      << "the knob value param must hold one "
                                         "integer, it holds ";
      if (held.empty())
        diag << "nothing";
      for (auto [n, a] : llvm::enumerate(held))
        diag << (n ? ", " : "") << a;
      return diag;
    }
    v = i.getInt();
    if (failed(verifyValue(op, kind, v)))
      return DiagnosedSilenceableFailure::definiteFailure();
  }
  // Every payload op checked before any is rewritten.
  SmallVector<Operation *> payload = llvm::to_vector(state.getPayloadOps(target));
  for (Operation *p : payload)
    if (std::optional<StringRef> need = payloadMismatch(kind, p)) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableFailure(op->getLoc())
          << stringifyTransformKind(kind) << " applies to " << *need
          << ", not '" << p->getName() << "'";
      diag.attachNote(p->getLoc()) << "payload op";
      return diag;
    }
  SmallVector<int32_t> values = tunerValues(param);
  for (Operation *p : payload) {
    auto module = p->getParentOfType<ModuleOp>();
    KindApplication how = module && module->hasAttr(kTransformKnobsAttrName)
                              ? KindApplication::Knob
                              : KindApplication::InPlace;
    if (failed(applyKind(p, kind, int32_t(v), values, how))) {
      DiagnosedDefiniteFailure diag = emitDefiniteFailure(op)
                                      << "could not apply "
                                      << stringifyTransformKind(kind);
      diag.attachNote(p->getLoc()) << "payload op";
      return diag;
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void approx::detail::kindOpEffects(
    MutableArrayRef<OpOperand> target, MutableArrayRef<OpOperand> param,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  mlir::transform::consumesHandle(target, effects);
  mlir::transform::onlyReadsHandle(param, effects);
  mlir::transform::modifiesPayload(effects);
}

namespace {
class ApproxTransformExtension
    : public mlir::transform::TransformDialectExtension<
          ApproxTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproxTransformExtension)
  using Base::Base;

  void init() {
    // What the kinds' rewrites create in the payload.
    declareGeneratedDialect<ApproxDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<func::FuncDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    declareGeneratedDialect<math::MathDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "approx/Dialect/Approx/TransformOps/ApproxTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void approx::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<ApproxTransformExtension>();
}
