//===- ApproxDialect.td - approx dialect definition -------*- tablegen -*-===//
#ifndef APPROX_DIALECT_TD
#define APPROX_DIALECT_TD

include "mlir/IR/OpBase.td"

def Approx_Dialect : Dialect {
  let name = "approx";
  let summary = "First-class approximation: knobs, management and transforms";
  let description = [{
    The `approx` dialect gives approximation a place in the IR that survives
    standard passes. An `approx.knob` wraps the region to approximate and is
    the unit the tuner addresses; a management op inside it
    (`approx.decision_tree`, `approx.safety_contract`) says *when*; an
    `approx.transform` says *how*. The `approx.util.annotation.*` ops are the
    seed's module-level annotations that `emit-approx` turns into knobs.
  }];
  let cppNamespace = "::approx";
  let useDefaultAttributePrinterParser = 1;
}

class Approx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Approx_Dialect, mnemonic, traits>;

#endif // APPROX_DIALECT_TD
