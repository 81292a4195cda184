//===- approx-tune.cpp - the configuration space of an approx program -----===//
//
//   approx-tune --space kernel.c --list              the tunable parameters
//   approx-tune --space kernel.mlir --validate c.json
//
// The search itself (issue 4's remaining part) is not here yet; this tool
// extracts and checks configuration spaces.
//
//===----------------------------------------------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Frontend/CImport.h"
#include "approx/Tuner/SpaceFromMLIR.h"
#include "../common/ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace {
cl::opt<std::string> spaceFile(
    "space", cl::desc("Annotated program: .mlir (annotation ops) or C/C++ "
                      "(`// @approx:` comments)"),
    cl::value_desc("file"), cl::Required);
cl::opt<bool> list("list", cl::desc("Print the tunable parameters and the "
                                    "sizes of the static and dynamic spaces"));
cl::opt<std::string> validateFile(
    "validate", cl::desc("Check a configuration (flat JSON) against the space"),
    cl::value_desc("config.json"), cl::init(""));
cl::list<std::string> includeDirs("I", cl::Prefix,
                                  cl::desc("Include directory (C/C++)"),
                                  cl::value_desc("dir"));
cl::list<std::string> defines("D", cl::Prefix, cl::desc("Macro (C/C++)"),
                              cl::value_desc("name[=value]"));
cl::opt<std::string> clangPath("clang", cl::desc("clang for C/C++ spaces"),
                               cl::init(APPROX_DEFAULT_CLANG));

int fail(const Twine &msg) { return approx::tools::fail("approx-tune", msg); }

std::string valuesOf(const approx::tune::TunableParam &p) {
  if (p.kind == approx::tune::ParamKind::Threshold)
    return "[" + std::to_string(p.lower) + ", " + std::to_string(p.upper) + "]";
  std::string s = "{";
  for (size_t i = 0; i < p.values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(p.values[i]);
  return s + "}";
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv, "approx-tune: configuration spaces of approx programs\n");
  if (!list && validateFile.empty())
    return fail("nothing to do: give --list or --validate");

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllFromLLVMIRTranslations(registry);
  registry.insert<approx::ApproxDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.printOpOnDiagnostic(false);
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);

  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (StringRef(spaceFile).ends_with(".mlir")) {
    module = mlir::parseSourceFile<mlir::ModuleOp>(spaceFile, &ctx);
  } else {
    approx::CImportOptions options;
    options.clangPath = clangPath;
    for (const std::string &d : includeDirs)
      options.clangArgs.push_back("-I" + d);
    for (const std::string &d : defines)
      options.clangArgs.push_back("-D" + d);
    module = approx::importCSource(ctx, spaceFile, options);
  }
  if (!module)
    return 1;
  approx::tune::Space space = approx::tune::spaceFromAnnotations(*module);

  if (list) {
    outs() << format("%-36s %-9s %-16s %-8s %-24s %s\n", "parameter", "kind",
                     "range", "current", "function", "index");
    for (const approx::tune::TunableParam &p : space.params)
      outs() << format("%-36s %-9s %-16s %-8lld %-24s %u\n", p.name.c_str(),
                       approx::tune::kindName(p.kind), valuesOf(p).c_str(),
                       (long long)p.current, p.function.c_str(), p.index);
    outs() << format("\n%zu knobs, %zu parameters; space size: static %.4g, "
                     "dynamic %.4g\n",
                     space.knobs.size(), space.params.size(), space.size(false),
                     space.size(true));
  }
  if (!validateFile.empty()) {
    approx::tune::Config config;
    std::string error;
    if (!approx::tune::readConfig(validateFile, config, error))
      return fail(error);
    std::vector<std::string> problems = space.validate(config);
    for (const std::string &p : problems)
      errs() << validateFile << ": error: " << p << "\n";
    if (!problems.empty())
      return 1;
    outs() << validateFile << ": valid (" << config.size() << " of "
           << space.params.size() << " parameters set)\n";
  }
  return 0;
}
