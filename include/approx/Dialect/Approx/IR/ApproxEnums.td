//===- ApproxEnums.td - approx dialect enums and attributes -*- tablegen -*-===//
#ifndef APPROX_ENUMS_TD
#define APPROX_ENUMS_TD

include "approx/Dialect/Approx/IR/ApproxDialect.td"
include "mlir/IR/EnumAttr.td"

// The transform kinds: the one list of what approx-opt can apply. Each case's
// string is its name in annotations; each has one rewrite pattern
// (populateTransformApproxPatterns). Knob value 0 always means exact.
def Approx_TransformKind : I32EnumAttr<"TransformKind",
    "an approximating transform", [
  I32EnumAttrCase<"LoopPerforate", 0, "loop_perforate">,
  I32EnumAttrCase<"LoopTruncateEnd", 1, "loop_truncate_end">,
  I32EnumAttrCase<"LoopTruncateStart", 2, "loop_truncate_start">,
  I32EnumAttrCase<"LoopRandomSkip", 3, "loop_random_skip">,
  I32EnumAttrCase<"FuncSubstitute", 4, "func_substitute">,
  I32EnumAttrCase<"TaskSkipping", 5, "task_skipping">,
  I32EnumAttrCase<"DecodeQuantize", 6, "decode_quantize">,
  I32EnumAttrCase<"PrecisionReduce", 7, "precision_reduce">,
]> {
  let cppNamespace = "::approx";
  let genSpecializedAttr = 0;
}

def Approx_TransformKindAttr
    : EnumAttr<Approx_Dialect, Approx_TransformKind, "kind"> {
  let summary = "A transform kind: `#approx.kind<loop_perforate>`";
  let assemblyFormat = "`<` $value `>`";
}

def Approx_TransformKindArrayAttr
    : TypedArrayAttrBase<Approx_TransformKindAttr, "transform kinds">;

#endif // APPROX_ENUMS_TD
