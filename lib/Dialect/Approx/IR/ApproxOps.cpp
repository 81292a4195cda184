//===- ApproxOps.cpp - approx dialect operations --------------------------===//
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/IR/SourceCheck.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace approx;

std::string approx::transformKindList() {
  std::string list;
  for (uint32_t i = 0; i <= getMaxEnumValForTransformKind(); ++i)
    list += (i ? ", " : "") + stringifyTransformKind(TransformKind(i)).str();
  return list;
}

/// A transform kind written as a bare keyword in an op:
/// `approx.transform loop_perforate <{...}>`.
static ParseResult parseKind(OpAsmParser &parser, TransformKindAttr &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<TransformKind> k = symbolizeTransformKind(name);
  if (!k)
    return parser.emitError(loc, "unknown transform kind '")
           << name << "' (expected one of: " << transformKindList() << ")";
  kind = TransformKindAttr::get(parser.getContext(), *k);
  return success();
}

static void printKind(OpAsmPrinter &printer, Operation *,
                      TransformKindAttr kind) {
  printer << stringifyTransformKind(kind.getValue());
}

#define GET_OP_CLASSES
#include "approx/Dialect/Approx/IR/ApproxOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

FailureOr<TransformKind> approx::parseTransformKind(Operation *op,
                                                   StringRef name) {
  if (std::optional<TransformKind> kind = symbolizeTransformKind(name))
    return *kind;
  return op->emitOpError("unknown transform type '")
         << name << "' (expected one of: " << transformKindList() << ")";
}

bool approx::isLoopKind(TransformKind kind) {
  switch (kind) {
  case TransformKind::LoopPerforate:
  case TransformKind::LoopTruncateEnd:
  case TransformKind::LoopTruncateStart:
  case TransformKind::LoopRandomSkip:
    return true;
  case TransformKind::FuncSubstitute:
  case TransformKind::TaskSkipping:
  case TransformKind::DecodeQuantize:
  case TransformKind::PrecisionReduce:
    return false;
  }
  llvm_unreachable("unknown transform kind");
}

LogicalResult approx::verifyKnobValues(Operation *op, TransformKind kind,
                                       ArrayRef<int32_t> values) {
  StringRef meaning;
  int32_t last;
  switch (kind) {
  case TransformKind::DecodeQuantize:
    meaning = "0 = exact, 1 = int8 per channel, 2 = int8 per tensor, 3 = int8 "
              "per channel on weights only";
    last = 3;
    break;
  case TransformKind::PrecisionReduce:
    meaning = "0 = exact, 1 = f16, 2 = bf16, 3 = bf16 in contractions only";
    last = 3;
    break;
  default:
    return success();
  }
  for (int32_t v : values)
    if (v > last)
      return op->emitOpError()
             << stringifyTransformKind(kind) << " has no knob value " << v
             << " (" << meaning << ")";
  return success();
}

LogicalResult approx::verifyDecisionTreeParams(
    Operation *op, ArrayRef<int32_t> thresholds, ArrayRef<int32_t> decisions,
    std::optional<ArrayRef<int32_t>> lowers,
    std::optional<ArrayRef<int32_t>> uppers,
    std::optional<ArrayRef<int32_t>> decisionValues) {
  if (thresholds.empty())
    return op->emitOpError("needs at least one threshold");
  if (decisions.size() != thresholds.size() + 1)
    return op->emitOpError("has ")
           << thresholds.size() << " thresholds, so needs "
           << thresholds.size() + 1 << " decisions, but has "
           << decisions.size();
  for (size_t i = 1; i < thresholds.size(); ++i)
    if (thresholds[i] <= thresholds[i - 1])
      return op->emitOpError("thresholds must be strictly ascending, but "
                             "threshold ")
             << i << " (" << thresholds[i] << ") <= threshold " << i - 1
             << " (" << thresholds[i - 1] << ")";
  if (lowers.has_value() != uppers.has_value())
    return op->emitOpError(
        "thresholds_lowers and thresholds_uppers must be given together");
  if (lowers) {
    if (lowers->size() != thresholds.size() ||
        uppers->size() != thresholds.size())
      return op->emitOpError("thresholds_lowers/thresholds_uppers need one "
                             "bound per threshold (")
             << thresholds.size() << "), got " << lowers->size() << "/"
             << uppers->size();
    for (size_t i = 0; i < thresholds.size(); ++i) {
      if ((*lowers)[i] > (*uppers)[i])
        return op->emitOpError("threshold ")
               << i << " has lower bound " << (*lowers)[i]
               << " above upper bound " << (*uppers)[i];
      if (thresholds[i] < (*lowers)[i] || thresholds[i] > (*uppers)[i])
        return op->emitOpError("threshold ")
               << i << " (" << thresholds[i] << ") is outside its bounds ["
               << (*lowers)[i] << ", " << (*uppers)[i] << "]";
    }
  }
  for (auto [j, d] : llvm::enumerate(decisions))
    if (d < 0)
      return op->emitOpError("decision ")
             << j << " is " << d << "; knob values must be >= 0";
  if (decisionValues) {
    if (decisionValues->empty())
      return op->emitOpError("decision_values must not be empty");
    for (auto [j, d] : llvm::enumerate(decisions))
      if (!llvm::is_contained(*decisionValues, d))
        return op->emitOpError("decision ")
               << j << " (" << d << ") is not one of decision_values";
    for (int32_t v : *decisionValues)
      if (v < 0)
        return op->emitOpError("decision value ")
               << v << " is negative; knob values must be >= 0";
  }
  return success();
}

LogicalResult approx::verifyStaticKnobParams(
    Operation *op, TransformKind kind, int64_t knobVal,
    std::optional<ArrayRef<int32_t>> decisionValues) {
  if (knobVal < 0)
    return op->emitOpError("knob_val must be >= 0, got ") << knobVal;
  SmallVector<int32_t> all{int32_t(knobVal)};
  if (decisionValues) {
    for (int32_t v : *decisionValues)
      if (v < 0)
        return op->emitOpError("decision value ") << v << " is negative";
    if (!llvm::is_contained(*decisionValues, int32_t(knobVal)))
      return op->emitOpError("knob_val ")
             << knobVal << " is not one of decision_values";
    llvm::append_range(all, *decisionValues);
  }
  return verifyKnobValues(op, kind, all);
}

std::string approx::variantName(StringRef base, int64_t k) {
  return ("approx_" + base + "_" + Twine(k)).str();
}

FunctionOpInterface approx::lookupFunction(SymbolTableCollection &tables,
                                           Operation *from, StringRef name,
                                           StringRef role) {
  Operation *module = from->getParentWithTrait<OpTrait::SymbolTable>();
  if (!module && from->hasTrait<OpTrait::SymbolTable>())
    module = from;
  Operation *sym =
      module ? tables.lookupSymbolIn(
                   module, StringAttr::get(from->getContext(), name))
             : nullptr;
  auto fn = dyn_cast_or_null<FunctionOpInterface>(sym);
  if (!fn) {
    from->emitOpError() << role << " '" << name
                        << (sym ? "' is not a function" : "' is not defined");
    return {};
  }
  return fn;
}

static std::string typeString(TypeRange inputs, TypeRange results) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "(";
  llvm::interleaveComma(inputs, os);
  os << ") -> (";
  llvm::interleaveComma(results, os);
  os << ")";
  return s;
}

LogicalResult approx::verifyFunctionType(Operation *user,
                                         FunctionOpInterface fn,
                                         TypeRange inputs, TypeRange results,
                                         StringRef role) {
  if (TypeRange(fn.getArgumentTypes()) == inputs &&
      TypeRange(fn.getResultTypes()) == results)
    return success();
  return user->emitOpError()
         << role << " '" << fn.getName() << "' has type "
         << typeString(fn.getArgumentTypes(), fn.getResultTypes())
         << " but must have type " << typeString(inputs, results);
}

LogicalResult approx::verifySubstituteVariants(Operation *user,
                                               SymbolTableCollection &tables,
                                               StringRef base,
                                               ArrayRef<int32_t> values) {
  FunctionOpInterface baseFn =
      lookupFunction(tables, user, base, "substituted function");
  if (!baseFn)
    return failure();
  llvm::SmallSetVector<int32_t, 8> seen;
  for (int32_t k : values) {
    if (k == 0 || !seen.insert(k))
      continue;
    std::string name = variantName(base, k);
    FunctionOpInterface v =
        lookupFunction(tables, user, name, "func_substitute variant");
    if (!v)
      return failure();
    if (failed(verifyFunctionType(user, v, baseFn.getArgumentTypes(),
                                  baseFn.getResultTypes(),
                                  "func_substitute variant")))
      return failure();
  }
  return success();
}

FailureOr<SmallVector<unsigned>>
approx::resolveStateIndices(Operation *op, ArrayRef<int64_t> indices,
                            unsigned numArgs) {
  SmallVector<unsigned> out;
  for (int64_t idx : indices) {
    int64_t r = idx < 0 ? idx + int64_t(numArgs) : idx;
    if (r < 0 || r >= int64_t(numArgs))
      return op->emitOpError("state index ")
             << idx << " is out of range for a function with " << numArgs
             << " arguments";
    out.push_back(unsigned(r));
  }
  return out;
}

/// Checks that `fn` can compute a state from the arguments of `target`
/// picked by `indices`: type (selected arg types) -> i32.
static LogicalResult verifyStateFunction(Operation *op,
                                         SymbolTableCollection &tables,
                                         FunctionOpInterface target,
                                         StringRef stateFn,
                                         ArrayRef<int64_t> indices) {
  FunctionOpInterface fn = lookupFunction(tables, op, stateFn, "state function");
  if (!fn)
    return failure();
  auto resolved =
      resolveStateIndices(op, indices, target.getArgumentTypes().size());
  if (failed(resolved))
    return failure();
  SmallVector<Type> inputs;
  for (unsigned i : *resolved)
    inputs.push_back(target.getArgumentTypes()[i]);
  Type i32 = IntegerType::get(op->getContext(), 32);
  return verifyFunctionType(op, fn, inputs, TypeRange(i32), "state function");
}

/// Checks a safety contract's functions against the guarded region:
/// `checker : (results..., args...) -> i1`, `recover : (args...) -> results`.
static LogicalResult verifyContractFunctions(Operation *op,
                                             SymbolTableCollection &tables,
                                             StringRef checkerName,
                                             StringRef recoverName,
                                             TypeRange results,
                                             TypeRange args) {
  FunctionOpInterface checker =
      lookupFunction(tables, op, checkerName, "checker");
  FunctionOpInterface recover =
      lookupFunction(tables, op, recoverName, "recover function");
  if (!checker || !recover)
    return failure();
  SmallVector<Type> checkerInputs(results);
  llvm::append_range(checkerInputs, args);
  Type i1 = IntegerType::get(op->getContext(), 1);
  if (failed(verifyFunctionType(op, checker, checkerInputs, TypeRange(i1),
                                "checker")))
    return failure();
  return verifyFunctionType(op, recover, args, results, "recover function");
}

//===----------------------------------------------------------------------===//
// KnobOp
//===----------------------------------------------------------------------===//

Operation *KnobOp::getManagementOp() {
  for (Operation &op : getBody().front())
    if (isa<DecisionTreeOp, TransformOp>(op))
      return &op;
  return nullptr;
}

Operation *KnobOp::getSafetyContract() {
  for (Operation &op : getBody().front())
    if (isa<SafetyContractOp>(op))
      return &op;
  return nullptr;
}

Operation *KnobOp::getYield() { return getBody().front().getTerminator(); }

bool KnobOp::isWholeFunction() {
  auto fn = dyn_cast<FunctionOpInterface>((*this)->getParentOp());
  if (!fn || fn.getFunctionBody().getBlocks().size() != 1)
    return false;
  Block &entry = fn.getFunctionBody().front();
  if (&entry.front() != getOperation())
    return false;
  Operation *next = getOperation()->getNextNode();
  return next && next->hasTrait<OpTrait::IsTerminator>() &&
         next->getOperands() == ValueRange(getResults()) &&
         next->getNextNode() == nullptr;
}

bool KnobOp::allows(TransformKind kind) {
  return llvm::any_of(getTransformTypes(), [&](Attribute a) {
    return cast<TransformKindAttr>(a).getValue() == kind;
  });
}

LogicalResult KnobOp::verify() {
  if (getIdAttr().getInt() < 0)
    return emitOpError("id must be >= 0, got ") << getIdAttr().getInt();
  if (getName().empty())
    return emitOpError("name must not be empty");
  if (getTransformTypes().empty())
    return emitOpError("transform_types must not be empty");
  if (getCallee() && !allows(TransformKind::FuncSubstitute))
    return emitOpError("callee is only meaningful for func_substitute");
  return success();
}

LogicalResult KnobOp::verifyRegions() {
  Block &body = getBody().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end with approx.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().size()
           << " values whose types do not match the knob's results";
  unsigned management = 0, contracts = 0;
  for (Operation &op : body) {
    management += isa<DecisionTreeOp, TransformOp>(op);
    contracts += isa<SafetyContractOp>(op);
  }
  if (management > 1)
    return emitOpError("has ")
           << management
           << " management ops; a knob holds one decision_tree or transform";
  if (contracts > 1)
    return emitOpError("has more than one safety_contract");
  if (getLowered()) {
    if (management || contracts || getParams())
      return emitOpError("is lowered but still holds management ops or params");
    return success();
  }
  if (management == 0 && !getParams())
    return emitOpError("has nothing to transform: it needs a "
                       "decision_tree or transform (or params for "
                       "emit-management)");
  return success();
}

LogicalResult KnobOp::verifySymbolUses(SymbolTableCollection &tables) {
  if (auto callee = getCalleeAttr())
    if (!lookupFunction(tables, *this, callee.getValue(), "callee"))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// DecisionTreeOp / TransformOp / SafetyContractOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyAllowedByKnob(Operation *op, TransformKind kind) {
  if (!op->getParentOfType<KnobOp>().allows(kind))
    return op->emitOpError("transform type '")
           << stringifyTransformKind(kind)
           << "' is not among the knob's transform_types";
  return success();
}

/// Every knob value a decision tree or static transform may apply.
static SmallVector<int32_t>
knobValues(ArrayRef<int32_t> given,
           std::optional<ArrayRef<int32_t>> decisionValues) {
  SmallVector<int32_t> all(given);
  if (decisionValues)
    llvm::append_range(all, *decisionValues);
  return all;
}

LogicalResult DecisionTreeOp::verify() {
  if (failed(verifyAllowedByKnob(*this, getTransformType())))
    return failure();
  if (failed(verifyKnobValues(*this, getTransformType(),
                              knobValues(getDecisions(), getDecisionValues()))))
    return failure();
  if (failed(verifyDecisionTreeParams(
          *this, getThresholds(), getDecisions(),
          getThresholdsLowers(),
          getThresholdsUppers(),
          getDecisionValues())))
    return failure();
  if (auto names = getRuntimeParams())
    if (names->size() != getThresholds().size() + getDecisions().size())
      return emitOpError("runtime_params needs one name per threshold and "
                         "decision (")
             << getThresholds().size() + getDecisions().size() << "), got "
             << names->size();
  return success();
}

LogicalResult DecisionTreeOp::verifySymbolUses(SymbolTableCollection &tables) {
  FunctionOpInterface fn =
      lookupFunction(tables, *this, getStateFunction(), "state function");
  if (!fn)
    return failure();
  Type i32 = IntegerType::get(getContext(), 32);
  if (TypeRange(fn.getResultTypes()) != TypeRange(i32))
    return emitOpError("state function '")
           << getStateFunction() << "' must return exactly one i32";
  return success();
}

LogicalResult TransformOp::verify() {
  if (failed(verifyAllowedByKnob(*this, getTransformType())))
    return failure();
  if (bool(getValue()) == getKnobVal().has_value())
    return emitOpError(
        "needs exactly one knob value: a knob_val attribute or a value operand");
  if (getKnobValAttr() && getKnobValAttr().getInt() < 0)
    return emitOpError("knob_val must be >= 0, got ")
           << getKnobValAttr().getInt();
  if (auto values = getDecisionValues()) {
    for (int32_t v : *values)
      if (v < 0)
        return emitOpError("decision value ") << v << " is negative";
    if (getKnobValAttr() &&
        !llvm::is_contained(*values, int32_t(getKnobValAttr().getInt())))
      return emitOpError("knob_val ")
             << getKnobValAttr().getInt() << " is not one of decision_values";
  }
  if (getRuntimeParam() && !getKnobVal())
    return emitOpError("runtime_param needs a default knob_val");
  SmallVector<int32_t> given;
  if (getKnobValAttr())
    given.push_back(int32_t(getKnobValAttr().getInt()));
  return verifyKnobValues(*this, getTransformType(),
                          knobValues(given, getDecisionValues()));
}

LogicalResult RuntimeParamOp::verify() {
  if (getName().empty())
    return emitOpError("name must not be empty");
  return success();
}

LogicalResult
SafetyContractOp::verifySymbolUses(SymbolTableCollection &tables) {
  auto knob = (*this)->getParentOfType<KnobOp>();
  auto fn = knob->getParentOfType<FunctionOpInterface>();
  if (!fn)
    return emitOpError("must be inside a function");
  return verifyContractFunctions(*this, tables, getChecker(), getRecover(),
                                 knob.getResultTypes(), fn.getArgumentTypes());
}

//===----------------------------------------------------------------------===//
// Annotation ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyTargeting(Operation *op,
                                     std::optional<StringRef> knobName,
                                     std::optional<ArrayRef<int64_t>> loopPath) {
  if (knobName && knobName->empty())
    return op->emitOpError("knob_name must not be empty");
  if (loopPath) {
    if (loopPath->empty())
      return op->emitOpError("loop_path must not be empty when given");
    for (int64_t i : *loopPath)
      if (i < 0)
        return op->emitOpError("loop_path entries must be >= 0, got ") << i;
  }
  return success();
}

static LogicalResult verifyCallee(Operation *op, StringRef transformType,
                                  std::optional<StringRef> callee) {
  if (callee && symbolizeTransformKind(transformType) !=
                    TransformKind::FuncSubstitute)
    return op->emitOpError("callee is only meaningful for func_substitute");
  return success();
}

/// The function an annotation targets: it must exist and have a body.
static FunctionOpInterface lookupTarget(Operation *op,
                                        SymbolTableCollection &tables,
                                        StringRef name) {
  FunctionOpInterface fn = lookupFunction(tables, op, name, "annotated function");
  if (fn && fn.isExternal()) {
    op->emitOpError("annotated function '")
        << name << "' is only declared; it needs a body to approximate";
    return {};
  }
  return fn;
}

/// Annotations carry only their own attributes: anything else is a
/// misspelling that would silently shrink the tuning space (`thresholds_lower`
/// for `thresholds_lowers`), reported with the closest known name.
static LogicalResult verifyOnlyKnownAttributes(Operation *op) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    llvm::SmallVector<StringRef> known;
    for (StringAttr k : op->getName().getAttributeNames())
      known.push_back(k.getValue());
    return op->emitOpError(
        unknownAttributeMessage(attr.getName().getValue(), known));
  }
  return success();
}

LogicalResult DecisionTreeAnnotationOp::verify() {
  if (failed(verifyOnlyKnownAttributes(*this)))
    return failure();
  if (failed(parseTransformKind(*this, getTransformType())))
    return failure();
  if (auto n = getNumThresholdsAttr())
    if (n.getInt() != int64_t(getThresholds().size()))
      return emitOpError("num_thresholds is ")
             << n.getInt() << " but there are " << getThresholds().size()
             << " thresholds";
  if (failed(verifyDecisionTreeParams(
          *this, getThresholds(), getDecisions(),
          getThresholdsLowers(),
          getThresholdsUppers(),
          getDecisionValues())))
    return failure();
  if (failed(verifyKnobValues(*this, getKind(),
                              knobValues(getDecisions(), getDecisionValues()))))
    return failure();
  if (failed(verifyTargeting(*this, getKnobName(), getLoopPath())))
    return failure();
  return verifyCallee(*this, getTransformType(), getCallee());
}

LogicalResult
DecisionTreeAnnotationOp::verifySymbolUses(SymbolTableCollection &tables) {
  FunctionOpInterface target = lookupTarget(*this, tables, getFuncName());
  if (!target)
    return failure();
  if (failed(verifyStateFunction(*this, tables, target, getStateFunction(),
                                 getStateIndices())))
    return failure();
  if (getKind() != TransformKind::FuncSubstitute)
    return success();
  SmallVector<int32_t> values(getDecisions());
  if (auto dv = getDecisionValues())
    llvm::append_range(values, *dv);
  return verifySubstituteVariants(*this, tables,
                                  getCallee().value_or(getFuncName()), values);
}

LogicalResult StaticTransformAnnotationOp::verify() {
  if (failed(verifyOnlyKnownAttributes(*this)))
    return failure();
  if (failed(parseTransformKind(*this, getTransformType())))
    return failure();
  if (failed(verifyStaticKnobParams(*this, getKind(), getKnobValAttr().getInt(),
                                    getDecisionValues())))
    return failure();
  if (failed(verifyTargeting(*this, getKnobName(), getLoopPath())))
    return failure();
  return verifyCallee(*this, getTransformType(), getCallee());
}

LogicalResult
StaticTransformAnnotationOp::verifySymbolUses(SymbolTableCollection &tables) {
  if (!lookupTarget(*this, tables, getFuncName()))
    return failure();
  if (getKind() != TransformKind::FuncSubstitute)
    return success();
  SmallVector<int32_t> values{int32_t(getKnobValAttr().getInt())};
  if (auto dv = getDecisionValues())
    llvm::append_range(values, *dv);
  return verifySubstituteVariants(*this, tables,
                                  getCallee().value_or(getFuncName()), values);
}

LogicalResult SafetyContractAnnotationOp::verify() {
  if (failed(verifyOnlyKnownAttributes(*this)))
    return failure();
  return verifyTargeting(*this, getKnobName(), getLoopPath());
}

LogicalResult
SafetyContractAnnotationOp::verifySymbolUses(SymbolTableCollection &tables) {
  FunctionOpInterface target = lookupTarget(*this, tables, getFuncName());
  if (!target)
    return failure();
  // For a loop knob the result types are known only once the knob exists;
  // approx.safety_contract checks the signatures then.
  if (getLoopPath())
    return success(
        lookupFunction(tables, *this, getChecker(), "checker") &&
        lookupFunction(tables, *this, getRecover(), "recover function"));
  return verifyContractFunctions(*this, tables, getChecker(), getRecover(),
                                 target.getResultTypes(),
                                 target.getArgumentTypes());
}

LogicalResult ConvertToCallAnnotationOp::verify() {
  return verifyOnlyKnownAttributes(*this);
}

LogicalResult
ConvertToCallAnnotationOp::verifySymbolUses(SymbolTableCollection &tables) {
  return success(lookupTarget(*this, tables, getFuncName()) != nullptr);
}
