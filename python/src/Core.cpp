//===- Core.cpp - approx_runtime._core: MLIR text, spaces, annotations ----===//
//
// The C++ side of the seed's Python API (docs/python.md): the tunable
// parameters of annotated MLIR, configurations written into it, annotation
// checks by the dialect's own verifier code, `// @approx:` comments parsed
// by the frontend's parser. Every error is a Python exception carrying the
// located diagnostics.
//
//===----------------------------------------------------------------------===//
#include "Core.h"

#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Frontend/Annotations.h"
#include "approx/Dialect/Approx/IR/SourceCheck.h"
#include "approx/Dialect/Approx/IR/WidenBounds.h"
#include "approx/Tuner/Search.h"
#include "approx/Tuner/SpaceFromMLIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mlir;

namespace approx::python {
namespace {

const DialectRegistry &registry() {
  static const DialectRegistry *r = [] {
    auto *r = new DialectRegistry;
    registerAllDialects(*r);
    registerAllExtensions(*r);
    approx::registerApproxDialects(*r);
    return r;
  }();
  return *r;
}

/// A context of its own per call: calls may come from several threads.
std::unique_ptr<MLIRContext> newContext() {
  auto ctx = std::make_unique<MLIRContext>(registry(),
                                           MLIRContext::Threading::DISABLED);
  ctx->printOpOnDiagnostic(false);
  return ctx;
}

/// Parses `text` (verified); raises ValueError with the located
/// diagnostics.
OwningOpRef<ModuleOp> parse(MLIRContext &ctx, const std::string &text,
                            const std::string &filename) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, filename), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  if (reportSourceProblems(sourceMgr, os))
    throw nb::value_error(diagnostics.c_str());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    throw nb::value_error(diagnostics.empty() ? ("cannot parse " + filename).c_str()
                                              : diagnostics.c_str());
  return module;
}

std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

nb::dict paramDict(const tune::TunableParam &p) {
  nb::dict d;
  d["name"] = p.name;
  d["lower"] = p.lower;
  d["upper"] = p.upper;
  d["current"] = p.current;
  d["param_type"] = tune::kindName(p.kind);
  d["func_name"] = p.function;
  d["knob"] = p.knob;
  d["index"] = p.index;
  d["values"] = p.values;
  return d;
}

/// Runs `check` on a scratch op and returns the first error it emits
/// (without the op's name), or nothing.
std::optional<std::string>
firstError(const std::function<LogicalResult(Operation *)> &check) {
  std::unique_ptr<MLIRContext> ctx = newContext();
  std::optional<std::string> message;
  ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
    if (!message)
      message = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(ctx.get()));
  if (succeeded(check(*scratch)))
    return std::nullopt;
  std::string m = message.value_or("invalid annotation");
  const std::string prefix = "'builtin.module' op ";
  if (m.rfind(prefix, 0) == 0)
    m = m.substr(prefix.size());
  return m;
}

std::optional<ArrayRef<int32_t>>
asRef(const std::optional<std::vector<int32_t>> &v) {
  if (!v)
    return std::nullopt;
  return ArrayRef<int32_t>(*v);
}

std::optional<TransformKind> kindOf(const std::string &name,
                                    std::optional<std::string> &error) {
  if (std::optional<TransformKind> k = symbolizeTransformKind(name))
    return k;
  error = "unknown transform type '" + name + "' (expected one of: " +
          transformKindList() + ")";
  return std::nullopt;
}

std::optional<std::string>
checkDecisionTree(const std::string &transformType,
                  const std::vector<int32_t> &thresholds,
                  const std::vector<int32_t> &decisions,
                  std::optional<std::vector<int32_t>> lowers,
                  std::optional<std::vector<int32_t>> uppers,
                  std::optional<std::vector<int32_t>> values) {
  std::optional<std::string> error;
  std::optional<TransformKind> kind = kindOf(transformType, error);
  if (!kind)
    return error;
  return firstError([&](Operation *op) {
    if (failed(verifyDecisionTreeParams(op, thresholds, decisions, asRef(lowers),
                                        asRef(uppers), asRef(values))) ||
        failed(verifyKnobValues(op, *kind, decisions)))
      return failure();
    return verifyKnobValues(op, *kind, values.value_or(std::vector<int32_t>{}));
  });
}

std::optional<std::string>
checkStatic(const std::string &transformType, int64_t knobVal,
            std::optional<std::vector<int32_t>> values) {
  std::optional<std::string> error;
  std::optional<TransformKind> kind = kindOf(transformType, error);
  if (!kind)
    return error;
  if (knobVal > INT32_MAX)
    return "knob_val must be below 2^31, got " + std::to_string(knobVal);
  return firstError([&](Operation *op) {
    return verifyStaticKnobParams(op, *kind, knobVal, asRef(values));
  });
}

/// The fields of an annotation whose values lie outside its own bounds,
/// widened by the dialect's own rule (WidenBounds.h): the widened lowers,
/// uppers and decision values, and one message per value widened. A static
/// transform is given as one decision and no thresholds.
using Widened = std::tuple<std::optional<std::vector<int32_t>>,
                           std::optional<std::vector<int32_t>>,
                           std::optional<std::vector<int32_t>>,
                           std::vector<std::string>>;
Widened widenFields(const std::vector<int32_t> &thresholds,
                    const std::vector<int32_t> &decisions,
                    std::optional<std::vector<int32_t>> lowers,
                    std::optional<std::vector<int32_t>> uppers,
                    std::optional<std::vector<int32_t>> values) {
  std::unique_ptr<MLIRContext> ctx = newContext();
  ctx->getOrLoadDialect<ApproxDialect>();
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
    messages.push_back(d.str());
    return success();
  });
  Location loc = UnknownLoc::get(ctx.get());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockBegin(scratch->getBody());
  auto i32s = [&](const std::optional<std::vector<int32_t>> &v) {
    return v ? b.getDenseI32ArrayAttr(*v) : DenseI32ArrayAttr();
  };
  Operation *op;
  if (thresholds.empty() && decisions.size() == 1)
    op = StaticTransformAnnotationOp::create(
        b, loc, b.getStringAttr("f"), b.getStringAttr("loop_perforate"),
        b.getI32IntegerAttr(decisions[0]),
        i32s(values), StringAttr(), DenseI64ArrayAttr(), StringAttr());
  else
    op = DecisionTreeAnnotationOp::create(
        b, loc, "f", "loop_perforate", b.getDenseI64ArrayAttr({-1}), "f",
        b.getDenseI32ArrayAttr(thresholds), b.getDenseI32ArrayAttr(decisions),
        i32s(lowers), i32s(uppers), i32s(values), IntegerAttr(), StringAttr(),
        DenseI64ArrayAttr(), StringAttr());
  widenAnnotationBounds(op);
  auto read = [](DenseI32ArrayAttr a) -> std::optional<std::vector<int32_t>> {
    if (!a)
      return std::nullopt;
    return std::vector<int32_t>(a.asArrayRef().begin(), a.asArrayRef().end());
  };
  if (auto dt = dyn_cast<DecisionTreeAnnotationOp>(op))
    return {read(dt.getThresholdsLowersAttr()), read(dt.getThresholdsUppersAttr()),
            read(dt.getDecisionValuesAttr()), messages};
  auto st = cast<StaticTransformAnnotationOp>(op);
  return {std::nullopt, std::nullopt, read(st.getDecisionValuesAttr()), messages};
}

nb::object annotationValue(const AnnotationValue &v) {
  switch (v.kind) {
  case AnnotationValue::Identifier:
    return nb::str(v.identifier.c_str());
  case AnnotationValue::Integer:
    return nb::int_(v.integer);
  case AnnotationValue::List:
    return nb::cast(v.list);
  }
  return nb::none();
}

std::string located(const std::string &file, SourcePos p,
                    const std::string &kind, const std::string &message) {
  return file + ":" + std::to_string(p.line) + ":" + std::to_string(p.col) +
         ": " + kind + ": " + message;
}

/// The `// @approx:` annotations of C/C++ `text`: (annotations, warnings);
/// raises ValueError listing every located error.
std::pair<nb::list, std::vector<std::string>>
parseCAnnotations(const std::string &text, const std::string &filename) {
  std::vector<AnnotationError> errors;
  std::vector<SourceAnnotation> anns = parseAnnotations(text, errors);
  if (!errors.empty()) {
    std::string message;
    for (const AnnotationError &e : errors)
      message += (message.empty() ? "" : "\n") +
                 located(filename, e.pos, "error", e.message);
    throw nb::value_error(message.c_str());
  }
  std::vector<std::string> warnings;
  for (const AnnotationError &w : findNearMisses(text))
    warnings.push_back(located(filename, w.pos, "warning", w.message));
  nb::list out;
  for (const SourceAnnotation &a : anns) {
    nb::dict d, entries;
    d["kind"] = a.kind == SourceAnnotation::DecisionTree      ? "decision_tree"
                : a.kind == SourceAnnotation::StaticTransform ? "static_transform"
                                                               : "safety_contract";
    d["line"] = a.pos.line;
    d["col"] = a.pos.col;
    d["last_line"] = a.lastLine;
    for (const auto &[key, value] : a.entries)
      entries[key.c_str()] = annotationValue(value);
    d["entries"] = entries;
    out.append(d);
  }
  return {out, warnings};
}

/// `text` with the annotation ops of `ops` appended to its module, verified.
std::string injectOps(const std::string &text, const std::string &ops,
                      const std::string &filename) {
  std::unique_ptr<MLIRContext> ctx = newContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, text, filename);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(ops, "<annotations>"),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, ctx.get(), os);
  ParserConfig config(ctx.get(), /*verifyAfterParse=*/false);
  if (failed(parseSourceFile(sourceMgr, module->getBody(), config)) ||
      failed(verify(*module)))
    throw nb::value_error(diagnostics.c_str());
  return print(*module);
}

} // namespace

/// f()'s value; ValueError with the diagnostics `ctx` got when it fails.
template <typename F>
auto valueOrThrow(MLIRContext &ctx, F f) -> std::decay_t<decltype(*f())> {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diagnostics);
    os << d.getLocation() << ": error: " << d << "\n";
    for (Diagnostic &note : d.getNotes())
      os << note.getLocation() << ": note: " << note << "\n";
    return success();
  });
  auto result = f();
  if (failed(result))
    throw nb::value_error(diagnostics.c_str());
  return *result;
}

tune::Space spaceOf(const std::string &text, const std::string &filename) {
  std::unique_ptr<MLIRContext> ctx = newContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, text, filename);
  return valueOrThrow(*ctx, [&] { return tune::spaceFromAnnotations(*module); });
}

std::string applyConfig(const std::string &text, const tune::Config &config,
                        const std::string &filename) {
  std::unique_ptr<MLIRContext> ctx = newContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, text, filename);
  valueOrThrow(*ctx, [&] { return tune::applyToAnnotations(*module, config); });
  return print(*module);
}

} // namespace approx::python

using namespace approx;
using namespace approx::python;

NB_MODULE(_core, m) {
  m.doc() = "The C++ core of approx_runtime (use the approx_runtime package)";

  m.def("transform_kinds", [] {
    std::vector<std::string> kinds;
    for (unsigned i = 0; i <= getMaxEnumValForTransformKind(); ++i)
      if (std::optional<TransformKind> k = symbolizeTransformKind(i))
        kinds.push_back(stringifyTransformKind(*k).str());
    return kinds;
  });
  m.def("check_decision_tree", &checkDecisionTree, nb::arg("transform_type"),
        nb::arg("thresholds"), nb::arg("decisions"), nb::arg("lowers").none(),
        nb::arg("uppers").none(), nb::arg("values").none(),
        "The first problem of a decision tree's fields, by the dialect's "
        "verifier, or None");
  m.def("widen_fields", &widenFields, nb::arg("thresholds"),
        nb::arg("decisions"), nb::arg("lowers").none(), nb::arg("uppers").none(),
        nb::arg("values").none(),
        "(lowers, uppers, values, messages): an annotation's bounds widened "
        "to hold its own values (the dialect's rule, approx-cc's "
        "--approx-widen-bounds); a static transform is one decision and no "
        "thresholds");
  m.def("check_static", &checkStatic, nb::arg("transform_type"),
        nb::arg("knob_val"), nb::arg("values").none(),
        "The first problem of a static transform's fields, or None");

  nb::class_<tune::Space>(m, "Space")
      .def_static("from_mlir", &spaceOf, nb::arg("text"),
                  nb::arg("filename") = "<mlir>",
                  nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("params",
                   [](const tune::Space &s) {
                     nb::list l;
                     for (const tune::TunableParam &p : s.params)
                       l.append(paramDict(p));
                     return l;
                   })
      .def_prop_ro("knobs",
                   [](const tune::Space &s) {
                     nb::list l;
                     for (size_t i = 0; i < s.knobs.size(); ++i) {
                       const tune::KnobParams &k = s.knobs[i];
                       nb::dict d;
                       d["name"] = k.name;
                       d["func_name"] = k.function;
                       d["transform_type"] = k.transformType;
                       d["decision_tree"] = k.decisionTree;
                       // (knob name, value) whose choice runs this knob's
                       // variant, or None; reachable: False when no
                       // configuration runs it (don't-care).
                       if (k.gate)
                         d["gate"] = nb::make_tuple(s.knobs[k.gate->knob].name,
                                                    k.gate->value);
                       else
                         d["gate"] = nb::none();
                       d["reachable"] = s.reachable(i);
                       l.append(d);
                     }
                     return l;
                   })
      .def("size", &tune::Space::size, nb::arg("dynamic"))
      .def("defaults", &tune::Space::defaults)
      .def("exact", &tune::exactConfig,
           "Every decision and knob value 0, thresholds as annotated")
      .def("complete", &tune::Space::complete, nb::arg("config"))
      .def("validate", &tune::Space::validate, nb::arg("config"))
      .def("canonical", &tune::Space::canonical, nb::arg("config"),
           nb::arg("dynamic"),
           "The configuration that runs the same code as `config` and is "
           "measured for it: parameters of knobs that do not run at their "
           "exact value, thresholds that separate equal decisions at their "
           "lowest");

  // Parsing and printing run without the GIL (other Python threads, e.g.
  // parallel evaluators, go on meanwhile).
  m.def("apply_config", &applyConfig, nb::arg("text"), nb::arg("config"),
        nb::arg("filename") = "<mlir>", nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "verify",
      [](const std::string &text, const std::string &filename) {
        std::unique_ptr<MLIRContext> ctx = newContext();
        return print(*parse(*ctx, text, filename));
      },
      nb::arg("text"), nb::arg("filename") = "<mlir>",
      nb::call_guard<nb::gil_scoped_release>(),
      "Parses and verifies MLIR text; returns it printed");
  m.def("inject_ops", &injectOps, nb::arg("text"), nb::arg("ops"),
        nb::arg("filename") = "<mlir>", nb::call_guard<nb::gil_scoped_release>());
  m.def("parse_c_annotations", &parseCAnnotations, nb::arg("text"),
        nb::arg("filename") = "<source>");
  m.def("json_string", &tune::jsonString, nb::arg("s"));
  m.def("to_json", &tune::toJson, nb::arg("config"));

  bindTune(m);
  bindCertify(m);
  bindController(m);
}
