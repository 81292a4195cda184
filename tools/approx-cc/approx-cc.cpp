//===- approx-cc.cpp - C/C++ with `// @approx:` annotations to native -----===//
//
//   approx-cc kernel.c main.c -O2 -o prog              # executable
//   approx-cc -c kernel.c -o kernel.o                  # object
//   approx-cc kernel.c -emit=annotated                 # MLIR with annotation
//   ops approx-cc kernel.c --approx-config=best.json ...   # a tuned
//   configuration
//
//===----------------------------------------------------------------------===//
#include "../common/OutputFile.h"
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/Registration.h"
#include "approx/Dialect/Approx/IR/WidenBounds.h"
#include "approx/Frontend/CImport.h"
#include "approx/Pipeline/Pipeline.h"
#include "approx/Tuner/Space.h"
#include "approx/Tuner/SpaceFromMLIR.h"
#include "approx/Support/ParamHint.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <set>

using namespace llvm;

namespace {
cl::OptionCategory toolCategory("approx-cc options");

cl::list<std::string> inputs(cl::Positional, cl::OneOrMore,
                             cl::desc("<C/C++ sources, objects, archives>"),
                             cl::cat(toolCategory));
cl::opt<std::string> output("o", cl::desc("Output file"),
                            cl::value_desc("file"), cl::cat(toolCategory));
cl::opt<bool> compileOnly("c", cl::desc("Compile to object files, no link"),
                          cl::cat(toolCategory));
cl::opt<std::string>
    emit("emit",
         cl::desc("Stop at a stage and print it: mlir (imported and raised), "
                  "annotated (with annotation ops), approx (after the approx "
                  "pipeline), llvm (LLVM IR)"),
         cl::value_desc("mlir|annotated|approx|llvm"), cl::init(""),
         cl::cat(toolCategory));
cl::opt<unsigned> optLevel("O", cl::desc("Optimisation level (default 2)"),
                           cl::Prefix, cl::init(2), cl::cat(toolCategory));
cl::list<std::string> includeDirs("I", cl::Prefix,
                                  cl::desc("Include directory"),
                                  cl::value_desc("dir"), cl::cat(toolCategory));
cl::list<std::string> defines("D", cl::Prefix, cl::desc("Define a macro"),
                              cl::value_desc("name[=value]"),
                              cl::cat(toolCategory));
cl::opt<std::string> language("x",
                              cl::desc("Language of every source file: c or c++ "
                                       "(default: by extension, .cc .cpp .cxx .C "
                                       "C++); with it, any input but an object or "
                                       "archive is a source"),
                              cl::value_desc("c|c++"), cl::init(""),
                              cl::cat(toolCategory));
cl::opt<std::string> standard("std", cl::desc("Language standard"),
                              cl::value_desc("c11|c++17|..."), cl::init(""),
                              cl::cat(toolCategory));
cl::list<std::string> libs("l", cl::Prefix, cl::desc("Link library"),
                           cl::value_desc("name"), cl::cat(toolCategory));
cl::list<std::string> libDirs("L", cl::Prefix, cl::desc("Library directory"),
                              cl::value_desc("dir"), cl::cat(toolCategory));
cl::list<std::string> linkerArgs("Wl", cl::Prefix, cl::CommaSeparated,
                                 cl::desc("Pass comma-separated arguments to "
                                          "the linker (-Wl,-rpath,DIR)"),
                                 cl::value_desc("arg,..."),
                                 cl::cat(toolCategory));
cl::opt<std::string> config("approx-config",
                            cl::desc("JSON configuration (seed parameter "
                                     "names) instead of the annotations' "
                                     "values"),
                            cl::value_desc("file.json"), cl::init(""),
                            cl::cat(toolCategory));
cl::opt<bool> runtimeTable(
    "approx-runtime-table",
    cl::desc("Read knob parameters from the runtime table (APPROX_CONFIG, C "
             "API) instead of baking them in"),
    cl::cat(toolCategory));
cl::opt<bool> widenBounds(StringRef(approx::kWidenBoundsOption),
                          cl::desc(approx::kWidenBoundsHelp), cl::cat(toolCategory));
cl::opt<bool> exact("approx-exact", cl::desc("Build every knob exact"),
                    cl::cat(toolCategory));
cl::opt<std::string> sanitize(
    "fsanitize",
    cl::desc("Instrument the generated code with clang's sanitizers "
             "(address,undefined,...): passed to the object compile and the "
             "link"),
    cl::value_desc("checks"), cl::init(""), cl::cat(toolCategory));
cl::opt<std::string> clangPath("clang",
                               cl::desc("clang used for parsing, "
                                        "code generation and linking"),
                               cl::init(APPROX_DEFAULT_CLANG),
                               cl::cat(toolCategory));

int fail(const Twine &msg) { return approx::tools::fail("approx-cc", msg); }

bool hasCxxExtension(StringRef path) {
  return path.ends_with(".cc") || path.ends_with(".cpp") ||
         path.ends_with(".cxx") || path.ends_with(".C");
}
bool isCxx(StringRef path) {
  return language.empty() ? hasCxxExtension(path) : language == "c++";
}
bool isObjectOrArchive(StringRef path) {
  return path.ends_with(".o") || path.ends_with(".a") || path.ends_with(".so") ||
         path.contains(".so.");
}
bool isSource(StringRef path) {
  return language.empty() ? path.ends_with(".c") || hasCxxExtension(path)
                          : !isObjectOrArchive(path);
}

int runTool(StringRef program, const std::vector<std::string> &args) {
  return approx::tools::runTool("approx-cc", program, args);
}

int writeText(StringRef path, StringRef text) {
  return approx::tools::writeText("approx-cc", path, text);
}

/// Imports one source file (annotated unless -emit=mlir); null on error
/// (reported).
mlir::OwningOpRef<mlir::ModuleOp> importSource(mlir::MLIRContext &ctx,
                                               StringRef source) {
  approx::CImportOptions importOptions;
  importOptions.clangPath = clangPath;
  importOptions.annotate = emit != "mlir";
  importOptions.widenBounds = widenBounds;
  for (const std::string &d : includeDirs)
    importOptions.clangArgs.push_back("-I" + d);
  for (const std::string &d : defines)
    importOptions.clangArgs.push_back("-D" + d);
  if (!standard.empty())
    importOptions.clangArgs.push_back("-std=" + standard);
  if (!language.empty()) {
    importOptions.clangArgs.push_back("-x");
    importOptions.clangArgs.push_back(language);
  }
  return approx::importCSource(ctx, source, importOptions);
}

/// With several source files, the configuration is the whole program's: each
/// of its names must be a parameter of one of the files (a file without
/// knobs is no error). Returns 1 after reporting the first name none has.
int checkProgramConfig(ArrayRef<mlir::OwningOpRef<mlir::ModuleOp>> modules) {
  approx::tune::Config values;
  std::string error;
  if (!approx::tune::readConfig(config, values, error))
    return fail(error);
  std::set<std::string> known;
  for (const mlir::OwningOpRef<mlir::ModuleOp> &m : modules) {
    mlir::FailureOr<approx::tune::Space> space =
        approx::tune::spaceFromAnnotations(*m);
    if (mlir::failed(space))
      return 1;
    for (const approx::tune::TunableParam &p : space->params)
      known.insert(p.name);
  }
  for (const auto &[name, value] : values) {
    if (known.count(name))
      continue;
    // Located at the name's first occurrence in the file.
    auto text = MemoryBuffer::getFile(config);
    size_t at = text ? (*text)->getBuffer().find("\"" + name + "\"") : StringRef::npos;
    std::string where = config;
    if (at != StringRef::npos) {
      StringRef before = (*text)->getBuffer().take_front(at);
      where += ":" + std::to_string(before.count('\n') + 1) + ":" +
               std::to_string(at - (before.rfind('\n') + 1) + 1);
    }
    std::string list;
    for (const std::string &k : known)
      list += (list.empty() ? "" : ", ") + k;
    errs() << where << ": error: unknown parameter '" << name << "'"
           << approx::names::didYouMean(
                  name, std::vector<std::string>(known.begin(), known.end()))
           << ": none of the "
           << modules.size() << " source files has it; this program's parameters are: "
           << list << "\n";
    return 1;
  }
  return 0;
}

/// Compiles an imported module (lowered with the other units' parameters
/// allowed in the configuration when `programConfig`: checkProgramConfig
/// checked them); returns 0 and, unless an -emit stage printed, the path of
/// the object in `object`.
int compileModule(mlir::MLIRContext &ctx, mlir::OwningOpRef<mlir::ModuleOp> module,
                  StringRef source, StringRef object, bool programConfig) {
  auto print = [&](mlir::ModuleOp m) {
    std::string text;
    raw_string_ostream os(text);
    m.print(os);
    return writeText(output.empty() ? "-" : StringRef(output), text);
  };
  if (emit == "mlir" || emit == "annotated")
    return print(*module);

  approx::PipelineOptions opts{config, runtimeTable ? "runtime" : "baked",
                               exact,
                               emit == "approx" ? approx::PipelineStage::Approx
                                                : approx::PipelineStage::LLVM};
  opts.configOtherUnits = programConfig;
  mlir::PassManager pm(&ctx);
  approx::buildApproxPipeline(pm, opts);
  if (failed(pm.run(*module)))
    return 1;
  if (emit == "approx")
    return print(*module);
  approx::dropStrayLifetimeMarkers(*module);
  LLVMContext llvmCtx;
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(*module, llvmCtx, source);
  if (!llvmModule)
    return fail("cannot translate '" + source + "' to LLVM IR (see above)");
  std::string ir;
  raw_string_ostream os(ir);
  llvmModule->print(os, nullptr);
  if (emit == "llvm")
    return writeText(output.empty() ? "-" : StringRef(output), ir);

  SmallString<128> llPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("approx-cc", "ll", llPath))
    return fail("cannot create a temporary file: " + ec.message());
  FileRemover remover(llPath);
  sys::RemoveFileOnSignal(llPath); // also when interrupted (SIGINT, SIGTERM)
  if (writeText(llPath, ir))
    return 1;
  std::vector<std::string> args = {clangPath, "-O" + std::to_string(optLevel),
                                   "-Wno-override-module", "-c", "-o",
                                   object.str(), std::string(llPath)};
  if (!sanitize.empty())
    args.push_back("-fsanitize=" + sanitize);
  return runTool(clangPath, args);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  approx::tools::showOnlyOwnOptions({&toolCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "approx-cc: C/C++ with `// @approx:` annotations to native code\n");

  if (!language.empty() && language != "c" && language != "c++")
    return fail("-x takes c or c++, got '" + language + "'");
  std::vector<std::string> sources, others;
  for (const std::string &in : inputs)
    (isSource(in) ? sources : others).push_back(in);
  if (sources.empty())
    return fail("no C or C++ source among the inputs");
  if (!emit.empty() && emit != "mlir" && emit != "annotated" &&
      emit != "approx" && emit != "llvm")
    return fail("-emit must be mlir, annotated, approx or llvm, got '" + emit +
                "'");
  if (!emit.empty() && sources.size() != 1)
    return fail("-emit takes exactly one source file");
  if (compileOnly && !output.empty() && sources.size() > 1)
    return fail("-c -o takes exactly one source file");
  if (exact && (!config.empty() || runtimeTable))
    return fail("--approx-exact excludes --approx-config and "
                "--approx-runtime-table");
  if (optLevel > 3)
    return fail("-O takes 0 to 3");
  std::vector<std::string> allInputs(inputs.begin(), inputs.end());
  if (!config.empty())
    allInputs.push_back(config);
  std::string finalOutput =
      !output.empty() ? std::string(output)
      : !emit.empty() ? std::string("-")
      : compileOnly   ? (sys::path::stem(sources.front()) + ".o").str()
                      : std::string("a.out");
  if (approx::tools::checkNotAnInput("approx-cc", finalOutput, allInputs))
    return 1;

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllFromLLVMIRTranslations(registry);
  approx::registerApproxDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // C users get the message at their comment, not an MLIR op dump.
  ctx.printOpOnDiagnostic(false);
  // Diagnostics as `file:line:col: error: ...` with the source line; the
  // handler loads the files it needs.
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);

  // Every source is imported first, so that a configuration is checked
  // against the whole program before anything is compiled.
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
  for (const std::string &src : sources) {
    modules.push_back(importSource(ctx, src));
    if (!modules.back())
      return 1;
  }
  if (!emit.empty())
    return compileModule(ctx, std::move(modules.front()), sources.front(), "", false);
  bool programConfig = sources.size() > 1 && !config.empty();
  if (programConfig && checkProgramConfig(modules))
    return 1;

  std::vector<std::string> objects;
  std::vector<std::unique_ptr<FileRemover>> temporaries;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string &src = sources[i];
    std::string object;
    if (compileOnly) {
      std::string path = !output.empty() ? std::string(output)
                                         : (sys::path::stem(src) + ".o").str();
      if (approx::tools::checkNotAnInput("approx-cc", path, allInputs))
        return 1;
      approx::tools::StagedOutput staged(path);
      if (int rc = compileModule(ctx, std::move(modules[i]), src, staged.path(),
                                 programConfig))
        return rc;
      if (staged.commit("approx-cc"))
        return 1;
      continue;
    } else {
      SmallString<128> tmp;
      if (std::error_code ec =
              sys::fs::createTemporaryFile("approx-cc", "o", tmp))
        return fail("cannot create a temporary file: " + ec.message());
      object = std::string(tmp);
      temporaries.push_back(std::make_unique<FileRemover>(tmp));
      sys::RemoveFileOnSignal(tmp);
    }
    if (int rc = compileModule(ctx, std::move(modules[i]), src, object, programConfig))
      return rc;
    objects.push_back(object);
  }
  if (compileOnly)
    return 0;

  bool cxx = llvm::any_of(sources, [](StringRef s) { return isCxx(s); });
  std::string linker = clangPath;
  if (cxx)
    linker = (sys::path::parent_path(clangPath) + "/clang++").str();
  approx::tools::StagedOutput staged(finalOutput);
  std::vector<std::string> args = {linker, "-O" + std::to_string(optLevel),
                                   "-o", staged.path()};
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), others.begin(), others.end());
  if (!sanitize.empty())
    args.push_back("-fsanitize=" + sanitize);
  args.push_back("-L" + approx::tools::runtimeLibDir(argv[0], (void *)&fail));
  for (const std::string &dir : libDirs)
    args.push_back("-L" + dir);
  for (const std::string &lib : libs)
    args.push_back("-l" + lib);
  for (const std::string &lib : approx::tools::runtimeLibraries())
    args.push_back(lib);
  for (const std::string &arg : linkerArgs)
    args.push_back("-Wl," + arg);
  if (runTool(linker, args))
    return 1;
  return staged.commit("approx-cc");
}
