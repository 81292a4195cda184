//===- approx-compile.cpp - annotated MLIR to native code -----------------===//
//
// Runs the approx pipeline on an annotated MLIR file, lowers it to LLVM IR
// and hands it to clang together with any other inputs (C files, objects,
// libraries), linking the approx runtime:
//
//   approx-compile kernel.mlir driver.c -o prog            # executable
//   approx-compile kernel.mlir -c -o kernel.o              # object
//   approx-compile kernel.mlir -shared -o libkernel.so     # shared library
//   approx-compile kernel.mlir --emit=llvm -o kernel.ll    # LLVM IR only
//
//===----------------------------------------------------------------------===//
#include "../common/InputFile.h"
#include "../common/OutputFile.h"
#include "approx/Execution/Execution.h"
#include "approx/Support/CrashGuard.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

using namespace llvm;

namespace {
cl::OptionCategory toolCategory("approx-compile options");

cl::list<std::string> inputs(cl::Positional, cl::OneOrMore,
                             cl::desc("<input.mlir> [C sources, objects, "
                                      "archives passed to clang]"),
                             cl::cat(toolCategory));
cl::opt<std::string> output("o", cl::desc("Output file"),
                            cl::value_desc("file"), cl::init("a.out"),
                            cl::cat(toolCategory));
cl::opt<bool> compileOnly("c", cl::desc("Compile to an object file"),
                          cl::cat(toolCategory));
cl::opt<bool> shared("shared", cl::desc("Build a shared library"),
                     cl::cat(toolCategory));
cl::opt<std::string>
    emit("emit", cl::desc("Stop early: mlir (LLVM dialect) or llvm (LLVM IR)"),
         cl::value_desc("mlir|llvm"), cl::init(""), cl::cat(toolCategory));
cl::opt<unsigned> optLevel("O", cl::desc("Optimisation level (default 3)"),
                           cl::Prefix, cl::init(3), cl::cat(toolCategory));
cl::opt<std::string> config("approx-config",
                            cl::desc("JSON configuration (seed parameter "
                                     "names) to bake in or use as defaults"),
                            cl::value_desc("file.json"), cl::init(""),
                            cl::cat(toolCategory));
cl::opt<bool> runtimeTable(
    "approx-runtime-table",
    cl::desc("Read every knob parameter from the runtime table (set with "
             "APPROX_CONFIG or the C API) instead of baking it in"),
    cl::cat(toolCategory));
cl::opt<bool> exact("approx-exact", cl::desc("Build every knob exact"),
                    cl::cat(toolCategory));
cl::opt<approx::DotProduct> dotProduct("approx-dot-product",
                                       cl::desc(approx::kDotProductDescription),
                                       cl::init(approx::DotProduct::Host),
                                       approx::dotProductValues(),
                                       cl::cat(toolCategory));
cl::list<std::string> libs("l", cl::Prefix, cl::desc("Link library"),
                           cl::value_desc("name"), cl::cat(toolCategory));
cl::list<std::string> libDirs("L", cl::Prefix, cl::desc("Library directory"),
                              cl::value_desc("dir"), cl::cat(toolCategory));
cl::list<std::string> includeDirs("I", cl::Prefix,
                                  cl::desc("Include directory for C inputs"),
                                  cl::value_desc("dir"), cl::cat(toolCategory));
cl::list<std::string> clangFlags(
    "Xclang-driver",
    cl::desc("Pass a flag to the clang that compiles and links (repeatable), "
             "e.g. -Xclang-driver=-fno-unroll-loops"),
    cl::value_desc("flag"), cl::cat(toolCategory));
cl::opt<std::string> clangPath("clang",
                               cl::desc("clang to compile and link with"),
                               cl::init(APPROX_DEFAULT_CLANG),
                               cl::cat(toolCategory));

int fail(const Twine &msg) {
  return approx::tools::fail("approx-compile", msg);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  approx::tools::showOnlyOwnOptions({&toolCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "approx-compile: annotated MLIR -> object, shared library or "
      "executable\n");

  StringRef input = inputs.front();
  if (!input.ends_with(".mlir"))
    return fail("the first input must be an .mlir file, got '" + input + "'");
  if (compileOnly && shared)
    return fail("-c and -shared exclude each other");
  if (!emit.empty() && emit != "mlir" && emit != "llvm")
    return fail("--emit must be 'mlir' or 'llvm', got '" + emit + "'");
  if (exact && (!config.empty() || runtimeTable))
    return fail("--approx-exact excludes --approx-config and "
                "--approx-runtime-table");
  if (optLevel > 3)
    return fail("-O takes 0 to 3");

  std::vector<std::string> allInputs(inputs.begin(), inputs.end());
  if (!config.empty())
    allInputs.push_back(config);
  if (approx::tools::checkNotAnInput("approx-compile", output, allInputs))
    return 1;

  std::unique_ptr<MemoryBuffer> buffer =
      approx::tools::readInput("approx-compile", input);
  if (!buffer)
    return 1;

  approx::CompileOptions options;
  options.configPath = config;
  options.mode = runtimeTable ? "runtime" : "baked";
  options.exact = exact;
  options.optLevel = optLevel;
  options.dotProduct = dotProduct;

  Expected<std::string> text = std::string();
  if (!approx::runGuarded("approx-compile", "compiling '" + input + "'", [&] {
        text = emit == "mlir" ? approx::compileToLLVMDialect(
                                    buffer->getBuffer(), input, options)
                              : approx::compileToLLVMIR(buffer->getBuffer(),
                                                        input, options);
      })) {
    consumeError(text.takeError());
    return 1;
  }
  if (!text) {
    errs() << toString(text.takeError());
    return 1;
  }

  if (!emit.empty())
    return approx::tools::writeText("approx-compile", output, *text);

  // Hand the LLVM IR to clang.
  SmallString<128> llPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("approx-compile", "ll", llPath))
    return fail("cannot create a temporary file: " + ec.message());
  FileRemover remover(llPath);
  sys::RemoveFileOnSignal(llPath); // also when interrupted (SIGINT, SIGTERM)
  if (approx::tools::writeText("approx-compile", llPath, *text))
    return 1;

  std::vector<std::string> args = {clangPath, "-O" + std::to_string(optLevel),
                                   "-Wno-override-module"};
  for (const std::string &dir : includeDirs)
    args.push_back("-I" + dir);
  for (const std::string &flag : clangFlags)
    args.push_back(flag);
  if (compileOnly) {
    args.push_back("-c");
  } else if (shared) {
    args.push_back("-shared");
    args.push_back("-fPIC");
  }
  approx::tools::StagedOutput staged(output);
  args.push_back("-o");
  args.push_back(staged.path());
  args.push_back(std::string(llPath));
  for (size_t i = 1; i < inputs.size(); ++i)
    args.push_back(inputs[i]);
  if (!compileOnly) {
    std::string rtDir = approx::tools::runtimeLibDir(argv[0], (void *)&fail);
    args.push_back("-L" + rtDir);
    for (const std::string &dir : libDirs)
      args.push_back("-L" + dir);
    for (const std::string &lib : libs)
      args.push_back("-l" + lib);
    for (const std::string &lib : approx::tools::runtimeLibraries())
      args.push_back(lib);
  }
  if (approx::tools::runTool("approx-compile", clangPath, args))
    return 1;
  return staged.commit("approx-compile");
}
