//===- CImport.cpp - C/C++ source to MLIR with annotations ----------------===//
#include "approx/Frontend/CImport.h"

#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Dialect/Approx/IR/SourceNames.h"
#include "approx/Dialect/Approx/IR/WidenBounds.h"
#include "approx/Frontend/Annotations.h"
#include "approx/Frontend/Passes.h"
#include "approx/Support/BoundedRead.h"
#include "OutlineLoops.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Import.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

#include <algorithm>
#include <map>

using namespace mlir;

namespace approx {

namespace {

/// A loop of the source: its first line and its position among the loops
/// of its function (see the annotation's loop_path).
struct SourceLoop {
  unsigned line;
  std::vector<int64_t> path;
};

struct SourceFunction {
  std::string file; // as the source manager names it
  unsigned line;
  std::string sourceName, linkName;
  std::string qualifiedName; // ns::Class::f: what its knobs are named after
  std::vector<SourceLoop> loops;
};

/// What the AST says about the program's own files: the main file and the
/// headers it includes that are not system headers.
struct SourceIndex {
  std::vector<SourceFunction> functions;        // definitions in those files
  std::map<std::string, std::string> linkNames; // source name -> symbol
  std::vector<std::string> headers; // the program's own headers, as first met
  /// Code an annotation may precede but cannot apply to: (file, line) ->
  /// what it is ("a function template", "a lambda", ...).
  std::map<std::pair<std::string, unsigned>, std::string> unsupported;
};

class IndexBuilder : public clang::ASTConsumer {
public:
  explicit IndexBuilder(SourceIndex &index) : index(index) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    mangle.reset(ctx.createMangleContext());
    sm = &ctx.getSourceManager();
    visit(ctx.getTranslationUnitDecl());
  }

private:
  SourceIndex &index;
  std::unique_ptr<clang::MangleContext> mangle;
  const clang::SourceManager *sm = nullptr;

  std::string linkName(clang::FunctionDecl *fd) {
    if (!mangle->shouldMangleDeclName(fd))
      return fd->getNameAsString();
    std::string s;
    llvm::raw_string_ostream os(s);
    if (auto *ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(fd))
      mangle->mangleName(clang::GlobalDecl(ctor, clang::Ctor_Complete), os);
    else if (auto *dtor = llvm::dyn_cast<clang::CXXDestructorDecl>(fd))
      mangle->mangleName(clang::GlobalDecl(dtor, clang::Dtor_Complete), os);
    else
      mangle->mangleName(clang::GlobalDecl(fd), os);
    return s;
  }

  unsigned lineOf(clang::SourceLocation loc) {
    return sm->getExpansionLineNumber(loc);
  }

  /// Loops below `s`, numbered per nesting level (see loop_path).
  void collectLoops(clang::Stmt *s, std::vector<int64_t> &path,
                    int64_t &counter, std::vector<SourceLoop> &out) {
    for (clang::Stmt *child : s->children()) {
      if (!child)
        continue;
      if (llvm::isa<clang::LambdaExpr, clang::BlockExpr>(child)) {
        markUnsupported(child, "a lambda", "a loop inside a lambda");
        continue;
      }
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                    clang::CXXForRangeStmt>(child)) {
        path.push_back(counter++);
        out.push_back({lineOf(child->getBeginLoc()), path});
        int64_t inner = 0;
        collectLoops(child, path, inner, out);
        path.pop_back();
      } else {
        collectLoops(child, path, counter, out);
      }
    }
  }

  /// Records `s` (and the loops in it) as code annotations cannot reach.
  void markUnsupported(clang::Stmt *s, const char *what, const char *loops) {
    std::string file = userFile(s->getBeginLoc());
    if (file.empty())
      return;
    index.unsupported.emplace(std::make_pair(file, lineOf(s->getBeginLoc())),
                              what);
    llvm::SmallVector<clang::Stmt *> work(s->children().begin(),
                                         s->children().end());
    if (auto *lambda = llvm::dyn_cast<clang::LambdaExpr>(s))
      work.push_back(lambda->getBody());
    while (!work.empty()) {
      clang::Stmt *c = work.pop_back_val();
      if (!c)
        continue;
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                    clang::CXXForRangeStmt>(c))
        index.unsupported.emplace(
            std::make_pair(file, lineOf(c->getBeginLoc())), loops);
      work.append(c->children().begin(), c->children().end());
    }
  }

  /// The file of a location in the program's own files (the main file or a
  /// non-system header, which is recorded in the index); empty for system
  /// headers and built-ins.
  std::string userFile(clang::SourceLocation loc) {
    clang::SourceLocation at = sm->getExpansionLoc(loc);
    if (at.isInvalid() || sm->isInSystemHeader(at))
      return "";
    std::string file = sm->getFilename(at).str();
    if (!file.empty() && !sm->isInMainFile(at) &&
        std::find(index.headers.begin(), index.headers.end(), file) == index.headers.end())
      index.headers.push_back(file);
    return file;
  }

  void function(clang::FunctionDecl *fd) {
    if (fd->isDependentContext() || !fd->getDeclName().isIdentifier())
      return;
    std::string name = fd->getNameAsString();
    index.linkNames.emplace(name, linkName(fd));
    std::string file = userFile(fd->getBeginLoc());
    if (!fd->doesThisDeclarationHaveABody() || file.empty())
      return;
    SourceFunction f{file, lineOf(fd->getBeginLoc()), name, linkName(fd),
                     fd->getQualifiedNameAsString(), {}};
    std::vector<int64_t> path;
    int64_t counter = 0;
    collectLoops(fd->getBody(), path, counter, f.loops);
    index.functions.push_back(std::move(f));
  }

  /// A function template: annotations before it or its loops get a message
  /// saying what they can apply to.
  void functionTemplate(clang::FunctionTemplateDecl *ft) {
    clang::FunctionDecl *fd = ft->getTemplatedDecl();
    std::string file = userFile(ft->getBeginLoc());
    if (file.empty() || !fd->doesThisDeclarationHaveABody())
      return;
    index.unsupported.emplace(std::make_pair(file, lineOf(ft->getBeginLoc())),
                              "a function template");
    markUnsupported(fd->getBody(), "a function template",
                    "a loop of a function template");
  }

  /// Functions of the translation unit, namespaces, classes and
  /// extern "C" blocks included.
  void visit(clang::DeclContext *dc) {
    for (clang::Decl *d : dc->decls()) {
      if (auto *fd = llvm::dyn_cast<clang::FunctionDecl>(d))
        function(fd);
      if (auto *ft = llvm::dyn_cast<clang::FunctionTemplateDecl>(d))
        functionTemplate(ft);
      if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl,
                    clang::CXXRecordDecl, clang::ExportDecl>(d))
        visit(llvm::cast<clang::DeclContext>(d));
    }
  }
};

/// EmitLLVMOnlyAction that also indexes the AST.
class ImportAction : public clang::EmitLLVMOnlyAction {
public:
  ImportAction(llvm::LLVMContext *ctx, SourceIndex &index)
      : EmitLLVMOnlyAction(ctx), index(index) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    // Index first: code generation may release AST resources once done.
    consumers.push_back(std::make_unique<IndexBuilder>(index));
    consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(ci, file));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  SourceIndex &index;
};

/// mem2reg + SROA: SSA form with top-tested loops kept (no loop rotation).
void promoteToSSA(llvm::Module &m) {
  llvm::PassBuilder pb;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::PromotePass());
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(m, mam);
}

/// The directive of a preprocessor line ("pragma" for `#  pragma omp`), or
/// "" for a line of code.
llvm::StringRef directiveOf(llvm::StringRef line) {
  llvm::StringRef t = line.trim();
  if (!t.consume_front("#"))
    return "";
  t = t.ltrim();
  return t.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The first line after `after` holding code (not blank, not a comment),
/// or a preprocessor line other than #pragma and #line: those apply to the
/// code after them (`#pragma omp parallel for`) and the source index counts
/// physical lines, so they may stand between an annotation and its target.
unsigned nextCodeLine(llvm::ArrayRef<llvm::StringRef> lines, unsigned after) {
  for (unsigned l = after + 1; l <= lines.size(); ++l) {
    llvm::StringRef t = lines[l - 1].trim();
    if (t.empty() || t.starts_with("//") ||
        (t.starts_with("/*") && t.ends_with("*/")))
      continue;
    llvm::StringRef d = directiveOf(t);
    if (d == "pragma" || d == "line") {
      while (l < lines.size() && lines[l - 1].rtrim().ends_with("\\"))
        ++l; // continued on the next line
      continue;
    }
    return l;
  }
  return 0;
}

/// What an annotation at `targetLine` of `file` applies to: a function,
/// or a loop and its function (both null: neither starts there).
std::pair<const SourceFunction *, const SourceLoop *>
findTarget(const SourceIndex &index, llvm::StringRef file, unsigned targetLine) {
  for (const SourceFunction &f : index.functions) {
    if (f.file != file)
      continue;
    if (f.line == targetLine)
      return {&f, nullptr};
    for (const SourceLoop &l : f.loops)
      if (l.line == targetLine)
        return {&f, &l};
  }
  return {nullptr, nullptr};
}

/// A file with annotations, parsed once: each annotation with the line it
/// applies to (nextCodeLine: 0 for none), and the parse errors.
struct AnnotatedFile {
  std::string path;
  std::unique_ptr<llvm::MemoryBuffer> text;
  std::vector<std::pair<SourceAnnotation, unsigned>> targets;
  std::vector<AnnotationError> errors;

  AnnotatedFile(std::string path, std::unique_ptr<llvm::MemoryBuffer> buffer)
      : path(std::move(path)), text(std::move(buffer)) {
    llvm::StringRef t = text->getBuffer();
    llvm::SmallVector<llvm::StringRef> lines;
    t.split(lines, '\n');
    for (SourceAnnotation &ann : parseAnnotations(t, errors))
      targets.push_back({ann, nextCodeLine(lines, ann.lastLine)});
  }
};

/// Annotated loops moved out of their functions (OutlineLoops.h), by the
/// function's symbol and the loop's line.
using OutlinedLoops = std::map<std::pair<std::string, unsigned>, OutlinedLoop>;

/// Turns source annotations into approx.util.annotation ops.
class Annotator {
public:
  Annotator(ModuleOp module, llvm::StringRef path, const SourceIndex &index,
            const OutlinedLoops &outlined)
      : module(module), path(path), index(index), outlined(outlined),
        b(module.getContext()) {
    b.setInsertionPointToEnd(module.getBody());
  }

  LogicalResult run(const AnnotatedFile &file) {
    llvm::StringRef text = file.text->getBuffer();
    for (const AnnotationError &w : findNearMisses(text))
      emitWarning(loc(w.pos), w.message);
    for (const AnnotationError &e : file.errors)
      emitError(loc(e.pos), e.message);
    if (!file.errors.empty())
      return failure();
    llvm::SmallVector<llvm::StringRef> lines;
    text.split(lines, '\n');
    bool ok = true;
    for (const auto &[ann, target] : file.targets) {
      if (target && !directiveOf(lines[target - 1]).empty()) {
        emitError(loc(ann.pos))
            << "annotation is followed by the preprocessor line '"
            << lines[target - 1].trim() << "' (line " << target
            << "): only #pragma and #line may stand between an annotation "
               "and its function or loop; put the annotation directly before "
               "its target (inside the #if, if it is conditional)";
        ok = false;
        continue;
      }
      ok &= succeeded(attach(ann, target));
    }
    return success(ok);
  }

private:
  ModuleOp module;
  std::string path;
  const SourceIndex &index;
  const OutlinedLoops &outlined;
  OpBuilder b;

  Location loc(SourcePos p) {
    return FileLineColLoc::get(module.getContext(), path, p.line, p.col);
  }

  /// The symbol of source name `name`, or an error at `p`.
  FailureOr<std::string> symbol(llvm::StringRef name, SourcePos p,
                                llvm::StringRef role) {
    auto it = index.linkNames.find(name.str());
    if (it == index.linkNames.end())
      return emitError(loc(p)) << role << " '" << name
                               << "' is not declared in this file";
    return it->second;
  }

  DenseI32ArrayAttr i32s(const AnnotationValue *v) {
    if (!v)
      return {};
    llvm::SmallVector<int32_t> xs(v->list.begin(), v->list.end());
    return b.getDenseI32ArrayAttr(xs);
  }

  /// C++: variants are found by source name (approx_<f>_<k>) but the
  /// pipeline looks for approx_<symbol of f>_<k>; bridge with a private
  /// forwarding function.
  LogicalResult bridgeVariants(const SourceAnnotation &ann,
                               llvm::StringRef sourceBase,
                               llvm::StringRef linkBase) {
    std::vector<int64_t> values;
    for (const char *key : {"decisions", "decision_values"})
      if (const AnnotationValue *v = ann.get(key))
        values.insert(values.end(), v->list.begin(), v->list.end());
    if (const AnnotationValue *v = ann.get("knob_val"))
      values.push_back(v->integer);
    llvm::sort(values);
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (int64_t k : values) {
      if (k == 0)
        continue;
      std::string src = variantName(sourceBase, k);
      FailureOr<std::string> sym = symbol(src, ann.pos, "func_substitute variant");
      if (failed(sym))
        return failure();
      std::string want = variantName(linkBase, k);
      if (*sym == want || module.lookupSymbol(want))
        continue;
      auto target = module.lookupSymbol<func::FuncOp>(*sym);
      if (!target)
        return emitError(loc(ann.pos))
               << "func_substitute variant '" << src
               << "' must be a plain function (not variadic, address not "
                  "taken)";
      OpBuilder fb(module.getContext());
      fb.setInsertionPointToEnd(module.getBody());
      // Located at the annotation: the target's debug scope belongs to it.
      Location at = loc(ann.pos);
      auto fwd = func::FuncOp::create(fb, at, want, target.getFunctionType());
      fwd.setPrivate();
      Block *entry = fwd.addEntryBlock();
      fb.setInsertionPointToEnd(entry);
      auto call = func::CallOp::create(fb, at, target, entry->getArguments());
      func::ReturnOp::create(fb, at, call.getResults());
    }
    return success();
  }

  /// The identity state function on the last argument, when none is named.
  FailureOr<std::string> defaultState(const SourceAnnotation &ann,
                                      func::FuncOp fn) {
    if (fn.getNumArguments() == 0 ||
        !fn.getArgumentTypes().back().isInteger(32))
      return emitError(loc(ann.pos))
             << "state_function is required unless the state is the last "
                "argument and an int";
    constexpr llvm::StringLiteral name = "__approx_state_identity";
    if (!module.lookupSymbol(name)) {
      OpBuilder fb(module.getContext());
      fb.setInsertionPointToStart(module.getBody());
      auto i32 = fb.getI32Type();
      auto f = func::FuncOp::create(fb, module.getLoc(), name,
                                    fb.getFunctionType({i32}, {i32}));
      f.setPrivate();
      Block *entry = f.addEntryBlock();
      fb.setInsertionPointToEnd(entry);
      func::ReturnOp::create(fb, module.getLoc(), entry->getArgument(0));
    }
    return std::string(name);
  }

  LogicalResult attach(const SourceAnnotation &ann, unsigned targetLine) {
    auto [fn, loop] = findTarget(index, path, targetLine);
    if (!fn) {
      auto what = index.unsupported.find({path, targetLine});
      if (what != index.unsupported.end())
        return emitError(loc(ann.pos))
               << "annotation is followed by " << what->second
               << ", which cannot be approximated: annotations apply to "
                  "function definitions that are not templates (free "
                  "functions and methods) and to the for/while loops in "
                  "them; move the code into such a function and annotate "
                  "it";
      return emitError(loc(ann.pos))
             << "annotation is not followed by a function definition or a "
                "for/while loop";
    }
    // A loop of a function with exception handling is in a function of its
    // own (OutlineLoops.h): the knob goes there, on its one loop nest.
    std::string symbolName = fn->linkName;
    std::vector<int64_t> nest = loop ? loop->path : std::vector<int64_t>{};
    unsigned inputs = 0;
    const OutlinedLoop *moved = nullptr;
    if (loop)
      if (auto it = outlined.find({fn->linkName, loop->line});
          it != outlined.end())
        moved = &it->second;
    if (moved && moved->symbol.empty())
      return emitError(loc(ann.pos))
             << "the loop cannot be approximated: function '" << fn->sourceName
             << "' uses C++ exceptions, and the loop cannot be moved into a "
                "function of its own: "
             << moved->whyNot;
    if (moved) {
      symbolName = moved->symbol;
      nest = {0};
      inputs = moved->inputs;
    }
    auto func = module.lookupSymbol<func::FuncOp>(symbolName);
    if (!func)
      return emitError(loc(ann.pos))
             << "function '" << fn->sourceName
             << "' cannot be approximated: "
             << whyNotRaised(module, symbolName);

    Location l = loc(ann.pos);
    StringAttr funcName = b.getStringAttr(symbolName);
    StringAttr knobName;
    if (const AnnotationValue *v = ann.get("knob_name"))
      knobName = b.getStringAttr(v->identifier);
    else if (loop)
      knobName = b.getStringAttr("line" + std::to_string(loop->line));
    DenseI64ArrayAttr loopPath =
        loop ? b.getDenseI64ArrayAttr(nest) : DenseI64ArrayAttr();

    if (ann.kind == SourceAnnotation::SafetyContract) {
      FailureOr<std::string> checker =
          symbol(ann.get("checker")->identifier, ann.get("checker")->pos,
                 "checker");
      FailureOr<std::string> recover =
          symbol(ann.get("recover")->identifier, ann.get("recover")->pos,
                 "recover function");
      if (failed(checker) || failed(recover))
        return failure();
      SafetyContractAnnotationOp::create(b, l, funcName,
                                         b.getStringAttr(*checker),
                                         b.getStringAttr(*recover), knobName,
                                         loopPath);
      return success();
    }

    StringAttr type = b.getStringAttr(ann.get("transform_type")->identifier);
    StringAttr callee;
    std::string sourceBase = fn->sourceName, linkBase = fn->linkName;
    if (const AnnotationValue *v = ann.get("callee")) {
      FailureOr<std::string> sym = symbol(v->identifier, v->pos, "callee");
      if (failed(sym))
        return failure();
      callee = b.getStringAttr(*sym);
      sourceBase = v->identifier;
      linkBase = *sym;
    }
    if (symbolizeTransformKind(type.getValue()) ==
            TransformKind::FuncSubstitute &&
        failed(bridgeVariants(ann, sourceBase, linkBase)))
      return failure();

    if (ann.kind == SourceAnnotation::StaticTransform) {
      StaticTransformAnnotationOp::create(
          b, l, funcName, type,
          b.getI32IntegerAttr(ann.get("knob_val")->integer),
          i32s(ann.get("decision_values")), knobName, loopPath, callee);
      return success();
    }

    std::string stateFn;
    if (const AnnotationValue *v = ann.get("state_function")) {
      FailureOr<std::string> sym = symbol(v->identifier, v->pos, "state function");
      if (failed(sym))
        return failure();
      stateFn = *sym;
    } else {
      FailureOr<std::string> dflt = defaultState(ann, func);
      if (failed(dflt))
        return failure();
      stateFn = *dflt;
    }
    std::vector<int64_t> indices{-1};
    if (const AnnotationValue *v = ann.get("state_indices"))
      indices = v->list;
    for (int64_t &i : indices) // the function's arguments follow the inputs
      if (i >= 0)
        i += inputs;
    DecisionTreeAnnotationOp::create(
        b, l, funcName, type, b.getDenseI64ArrayAttr(indices),
        b.getStringAttr(stateFn), i32s(ann.get("thresholds")),
        i32s(ann.get("decisions")), i32s(ann.get("thresholds_lower")),
        i32s(ann.get("thresholds_upper")), i32s(ann.get("decision_values")),
        /*num_thresholds=*/IntegerAttr(), knobName, loopPath, callee);
    return success();
  }
};

} // namespace

OwningOpRef<ModuleOp> importCSource(MLIRContext &ctx, llvm::StringRef path,
                                    const CImportOptions &options) {
  // Clang, in process.
  // -O1 for the front end's type-based alias metadata, but no LLVM pass
  // (loop rotation would turn top-tested loops into do-while form).
  std::vector<std::string> argStrings = {options.clangPath, "-fsyntax-only",
                                         "-O1", "-Xclang",
                                         "-disable-llvm-passes",
                                         "-gline-tables-only"};
  argStrings.insert(argStrings.end(), options.clangArgs.begin(),
                    options.clangArgs.end());
  argStrings.push_back(path.str());
  std::vector<const char *> args;
  for (const std::string &s : argStrings)
    args.push_back(s.c_str());
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(args);
  if (!invocation) {
    emitError(UnknownLoc::get(&ctx)) << "cannot compile '" << path
                                     << "': invalid compiler arguments";
    return nullptr;
  }
  clang::CompilerInstance ci(invocation);
  ci.createDiagnostics();
  llvm::LLVMContext llvmCtx;
  SourceIndex index;
  ImportAction action(&llvmCtx, index);
  if (!ci.ExecuteAction(action))
    return nullptr;
  std::unique_ptr<llvm::Module> llvmModule = action.takeModule();
  if (!llvmModule)
    return nullptr;
  promoteToSSA(*llvmModule);

  // The main file's annotations, then those of the program's own headers
  // (a header's annotations apply to its own functions and loops).
  std::vector<AnnotatedFile> files;
  if (options.annotate) {
    std::vector<std::string> names{path.str()};
    names.insert(names.end(), index.headers.begin(), index.headers.end());
    for (const std::string &file : names) {
      auto text = readBounded(file);
      if (!text) {
        emitError(UnknownLoc::get(&ctx)) << "cannot read '" << file
                                         << "': " << llvm::toString(text.takeError());
        return nullptr;
      }
      if (file == names.front() ||
          (*text)->getBuffer().contains_insensitive("@approx"))
        files.emplace_back(file, std::move(*text));
    }
  }
  // Annotated loops of functions with exception handling move into
  // functions of their own (OutlineLoops.h).
  OutlinedLoops outlined;
  for (const AnnotatedFile &file : files) {
    for (const auto &[ann, target] : file.targets) {
      auto [fn, loop] = findTarget(index, file.path, target);
      if (!loop || outlined.count({fn->linkName, loop->line}))
        continue;
      llvm::Function *f = llvmModule->getFunction(fn->linkName);
      if (f && usesExceptions(*f))
        outlined[{fn->linkName, loop->line}] =
            outlineLoop(*llvmModule, fn->linkName, loop->line);
    }
  }

  // MLIR: import, raise, lift, uplift.
  OwningOpRef<ModuleOp> module =
      translateLLVMIRToModule(std::move(llvmModule), &ctx,
                              /*emitExpensiveWarnings=*/false);
  if (!module)
    return nullptr;
  PassManager pm(&ctx);
  pm.addPass(createRaiseLLVMToStd());
  pm.addPass(createLiftToSCF());
  pm.addPass(createUpliftWhileToFor());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    return nullptr;

  if (!options.annotate)
    return module;
  bool ok = true;
  for (const AnnotatedFile &file : files) {
    Annotator annotator(*module, file.path, index, outlined);
    ok &= succeeded(annotator.run(file));
  }
  if (!ok)
    return nullptr;
  // Knobs of C++ functions are named after their source names; those of a
  // moved loop after its function's.
  std::map<std::string, std::string> qualified, annotated, pieces;
  for (const SourceFunction &f : index.functions)
    qualified.emplace(f.linkName, f.qualifiedName);
  for (const auto &[where, moved] : outlined)
    if (!moved.symbol.empty())
      pieces.emplace(moved.symbol, where.first);
  for (Operation &op : module->getBody()->getOperations()) {
    auto name = op.getAttrOfType<StringAttr>("func_name");
    if (!name || !isa<DecisionTreeAnnotationOp, StaticTransformAnnotationOp,
                      SafetyContractAnnotationOp>(op))
      continue;
    std::string symbol = name.str();
    if (auto piece = pieces.find(symbol); piece != pieces.end())
      symbol = piece->second;
    if (auto it = qualified.find(symbol); it != qualified.end())
      annotated.insert(*it);
  }
  recordSourceNames(*module, annotated, pieces);
  if (options.widenBounds)
    widenAnnotationBounds(*module);
  // Annotation errors (lengths, order, bounds, signatures) are reported at
  // the comment, before any pass sees the module.
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

void dropStrayLifetimeMarkers(ModuleOp module) {
  module.walk([](Operation *op) {
    if (isa<LLVM::LifetimeStartOp, LLVM::LifetimeEndOp>(op) &&
        !op->getOperand(0).getDefiningOp<LLVM::AllocaOp>())
      op->erase();
  });
}

} // namespace approx
