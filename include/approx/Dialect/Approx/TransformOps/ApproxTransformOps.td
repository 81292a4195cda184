//===- ApproxTransformOps.td - transform.approx.* ops ------*- tablegen -*-===//
//
// One Transform-dialect op per transform kind (DESIGN §17). They share one
// implementation (ApproxTransformOps.cpp): the kind's facts (value range,
// the payload it takes) and its rewrite are those of the annotations.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TRANSFORM_OPS_TD
#define APPROX_TRANSFORM_OPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class ApproxKindOp<string kind, string cppKind>
    : Op<Transform_Dialect, "approx." # kind, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let cppNamespace = "::approx::transform";
  let summary = "Applies " # kind # " to each payload op";
  let description = [{
    The transform kind `}] # kind # [{` of the approx dialect, with the
    knob value given as an integer or as a `!transform.param` holding one
    integer (e.g. from `transform.tune.knob`); 0 is exact. The value is
    checked as the annotations' are, and each payload op must be one the
    kind takes (approx::payloadMismatch; docs/passes.md lists them).

    ```mlir
    transform.approx.}] # kind # [{ %h by 2 : !transform.any_op
    transform.approx.}] # kind # [{ %h by %k : !transform.any_op, !transform.param<i64>
    ```

    By default each payload op is rewritten in place (standard MLIR is
    left). When the payload module carries the unit attribute
    `approx.transform_knobs` (`apply-transform-script{knobs}`, as the approx
    pipeline runs it for runtime-table and exact builds), each payload op is wrapped in an
    `approx.knob` with an `approx.transform` instead, for the approx
    pipeline to lower; its value is then the tunable parameter
    `<knob>_knob_val`.

    Consumes the handle; produces none. A payload op of the wrong kind is a
    silenceable failure; a value out of range or a param that does not hold
    one integer is a definite one.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$value,
                       Optional<TransformParamTypeInterface>:$param);
  let assemblyFormat =
      "$target `by` custom<KnobValue>($value, $param) attr-dict `:` "
      "type($target) (`,` type($param)^)?";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr ::approx::TransformKind kKind =
        ::approx::TransformKind::}] # cppKind # [{;
  }];
  let extraClassDefinition = [{
    ::mlir::DiagnosedSilenceableFailure $cppClass::apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state) {
      return ::approx::detail::applyKindOp(getOperation(), kKind, getValueAttr(),
                                           getParam(), getTarget(), state);
    }
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::MemoryEffects::EffectInstance> &effects) {
      ::approx::detail::kindOpEffects(getTargetMutable(), getParamMutable(),
                                      effects);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::approx::detail::verifyKindOp(getOperation(), kKind, getValueAttr(),
                                            getParam());
    }
  }];
}

def LoopPerforateOp : ApproxKindOp<"loop_perforate", "LoopPerforate">;
def LoopTruncateEndOp : ApproxKindOp<"loop_truncate_end", "LoopTruncateEnd">;
def LoopTruncateStartOp : ApproxKindOp<"loop_truncate_start", "LoopTruncateStart">;
def LoopRandomSkipOp : ApproxKindOp<"loop_random_skip", "LoopRandomSkip">;
def FuncSubstituteOp : ApproxKindOp<"func_substitute", "FuncSubstitute">;
def TaskSkippingOp : ApproxKindOp<"task_skipping", "TaskSkipping">;
def DecodeQuantizeOp : ApproxKindOp<"decode_quantize", "DecodeQuantize">;
def PrecisionReduceOp : ApproxKindOp<"precision_reduce", "PrecisionReduce">;

#endif // APPROX_TRANSFORM_OPS_TD
