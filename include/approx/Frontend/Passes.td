//===- Passes.td - C/C++ frontend passes -------------------*- tablegen -*-===//
#ifndef APPROX_FRONTEND_PASSES_TD
#define APPROX_FRONTEND_PASSES_TD

include "mlir/Pass/PassBase.td"

def RaiseLLVMToStd : Pass<"approx-raise-llvm", "::mlir::ModuleOp"> {
  let summary = "Raise imported LLVM IR functions to func/cf/arith";
  let description = [{
    Turns `llvm.func` definitions and declarations into `func.func`, their
    branches into `cf`, their returns into `func.return`, direct calls into
    `func.call`, and scalar integer/float arithmetic, comparisons, casts,
    selects and constants into `arith`. Memory, pointer and other LLVM ops
    stay as they are (they are valid inside `func.func`).

    Functions stay `llvm.func` when they cannot be `func.func`: variadic
    functions, functions whose address is taken (`llvm.mlir.addressof`,
    function pointers such as qsort comparators or thread entry points) and
    functions using exception handling (`llvm.invoke`). Internal linkage is
    kept through the `llvm.linkage` attribute. `llvm.unreachable` becomes a
    return of poison values (undefined behaviour either way).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect", "::mlir::ub::UBDialect"];
}

def LiftToSCF : Pass<"approx-lift-scf", "::mlir::ModuleOp"> {
  let summary = "Lift the control flow of raised functions to scf";
  let description = [{
    Runs the upstream CFG-to-SCF transformation on every `func.func` with a
    body, producing `scf.while`/`scf.if`/`scf.index_switch`, then brings
    loops into the canonical top-tested form (condition in the before
    region, body in the after region).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
                           "::mlir::arith::ArithDialect"];
}

def UpliftWhileToFor : Pass<"approx-uplift-while", "::mlir::ModuleOp"> {
  let summary = "Turn counted scf.while loops into scf.for, with correct exit values";
  let description = [{
    An `scf.while` whose before region only compares an induction variable
    `i` (signed `<` against a loop-invariant bound) and whose after region
    advances `i` by a positive loop-invariant constant step becomes an
    `scf.for`. The value of `i` after the loop is
    `lb + ceildiv(max(ub - lb, 0), step) * step`: upstream's
    `populateUpliftWhileToForPatterns` (LLVM 22.1.8) gets it wrong
    (llvm/llvm-project#219616), so this pattern is our own. Other loops stay
    `scf.while`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def LowerNswFor : Pass<"approx-lower-nsw-for", "::mlir::ModuleOp"> {
  let summary = "Lower uplifted scf.for loops to scf.while with nsw increments";
  let description = [{
    `--approx-uplift-while` records on an `scf.for` that the source's
    increment was `nsw` (C's signed `i++`). `scf.for` cannot carry the flag
    and scf-to-cf would drop it, which keeps LLVM from widening the
    induction variable. Before lowering, such loops whose step is still the
    source's (not perforated) become `scf.while` with an `nsw` increment;
    the others only lose the marker.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

#endif // APPROX_FRONTEND_PASSES_TD
