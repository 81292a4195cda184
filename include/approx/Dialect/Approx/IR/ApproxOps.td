//===- ApproxOps.td - approx dialect operations -----------*- tablegen -*-===//
#ifndef APPROX_OPS_TD
#define APPROX_OPS_TD

include "approx/Dialect/Approx/IR/ApproxDialect.td"
include "approx/Dialect/Approx/IR/ApproxEnums.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Core ops
//===----------------------------------------------------------------------===//

def Approx_KnobOp : Approx_Op<"knob", [
    RecursiveMemoryEffects, SingleBlock,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A region that may be approximated; the unit the tuner addresses";
  let description = [{
    `approx.knob` wraps the code to approximate (a loop, a call, a whole
    function body). Its results are the region's live-outs, returned by
    `approx.yield`. The region is not isolated: it uses values of the
    enclosing function directly.

    - `id`: unique in the module, stable (assigned in order of appearance).
    - `name`: unique in the module; the prefix of the knob's tunable
      parameter names (`<name>_threshold_<i>`, `<name>_decision_<j>`).
    - `transform_types`: the transform kinds this knob may apply.
    - `callee` (optional): for `func_substitute` on a region, the function
      whose calls inside the region are substituted by `approx_<callee>_<k>`.
    - `params` (optional): the management request recorded by `emit-approx`
      and consumed by `emit-management`.
    - `lowered`: set by `transform-approx` once the knob's management and
      transform are applied; `finalize-approx` inlines only lowered knobs.

    After `emit-management` the body starts with exactly one management op
    (`approx.decision_tree` or `approx.transform`), optionally followed by an
    `approx.safety_contract`.

    Example:
    ```mlir
    %r = approx.knob <{id = 0 : i32, name = "sum",
                      transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
      approx.transform loop_perforate <{knob_val = 2 : i32}>
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) { ... }
      approx.yield %s : i32
    }
    ```
  }];
  let arguments = (ins
    I32Attr:$id,
    StrAttr:$name,
    Approx_TransformKindArrayAttr:$transform_types,
    OptionalAttr<FlatSymbolRefAttr>:$callee,
    OptionalAttr<DictionaryAttr>:$params,
    UnitAttr:$lowered);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "prop-dict (`->` type($results)^)? $body attr-dict";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The management op at the start of the body (decision_tree or
    /// transform), or null.
    ::mlir::Operation *getManagementOp();
    /// The safety contract in the body, or null.
    ::mlir::Operation *getSafetyContract();
    /// The approx.yield terminating the body.
    ::mlir::Operation *getYield();
    /// True when the knob is the whole body of its function (the function
    /// returns exactly the knob's results right after it).
    bool isWholeFunction();
    /// True when `kind` is among the knob's transform_types.
    bool allows(::approx::TransformKind kind);
  }];
}

def Approx_YieldOp : Approx_Op<"yield", [
    Pure, Terminator, ReturnLike, HasParent<"KnobOp">]> {
  let summary = "Terminates an approx.knob region, yielding its live-outs";
  let description = [{
    Example: `approx.yield %v : i32`
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

def Approx_DecisionTreeOp : Approx_Op<"decision_tree", [
    HasParent<"KnobOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Chooses the knob value from a program state at run time";
  let description = [{
    `state` is the i32 computed by calling `state_function` on the function
    arguments picked by `state_indices`. Branch `i` is taken when exactly `i`
    of the (strictly ascending) `thresholds` are <= state; it applies
    `transform_type` with knob value `decisions[i]` to the rest of the knob.

    `thresholds_lowers`/`thresholds_uppers` bound each threshold for the
    tuner and `decision_values` lists the allowed decisions. With
    `runtime_params` set (by `config-approx` in runtime mode), thresholds and
    decisions are read from the runtime knob table under those names, with
    the attribute values as defaults.

    Example:
    ```mlir
    %s = func.call @get_state(%n) : (i32) -> i32
    approx.decision_tree loop_perforate %s <{
        state_function = "get_state", state_indices = array<i64: 0>,
        thresholds = array<i32: 100>, decisions = array<i32: 0, 2>}> : i32
    ```
  }];
  let arguments = (ins
    I32:$state,
    Approx_TransformKindAttr:$transform_type,
    StrAttr:$state_function,
    DenseI64ArrayAttr:$state_indices,
    DenseI32ArrayAttr:$thresholds,
    DenseI32ArrayAttr:$decisions,
    OptionalAttr<DenseI32ArrayAttr>:$thresholds_lowers,
    OptionalAttr<DenseI32ArrayAttr>:$thresholds_uppers,
    OptionalAttr<DenseI32ArrayAttr>:$decision_values,
    OptionalAttr<StrArrayAttr>:$runtime_params);
  let assemblyFormat =
      "custom<Kind>($transform_type) $state prop-dict attr-dict `:` type($state)";
  let hasVerifier = 1;
}

def Approx_TransformOp : Approx_Op<"transform", [HasParent<"KnobOp">]> {
  let summary = "Applies one transform, with a knob value, to the rest of its knob";
  let description = [{
    `transform_type` is a transform kind (`#approx.kind`). The knob value
    is either the static `knob_val` attribute or the dynamic `value`
    operand (i32); 0 always means exact, larger values are more aggressive.
    For the loop kinds, k divides the work of the knob's outermost loop:

    - loop_perforate(k): every k-th iteration runs (the step is multiplied
      by k).
    - loop_truncate_end(k): the first ceil(n/k) of its n iterations run.
    - loop_truncate_start(k): the last ceil(n/k) iterations run.
    - loop_random_skip(k): each iteration runs with probability 1/k, drawn
      from a hash of the knob's id and the iteration's index (reproducible
      from build to build and run to run).
    - func_substitute(k): the work of `f` is done by `approx_f_k`.
    - task_skipping(k): branch k-1 of the first `scf.if`/`scf.index_switch`
      is forced.

    With `runtime_param` set (runtime-table configuration), a static knob
    value is read from the runtime table under that name, `knob_val` being
    the default. `decision_values` lists the values a tuner may choose.

    Example:
    `approx.transform task_skipping <{knob_val = 1 : i32}>``
  }];
  let arguments = (ins
    Optional<I32>:$value,
    Approx_TransformKindAttr:$transform_type,
    OptionalAttr<I32Attr>:$knob_val,
    OptionalAttr<DenseI32ArrayAttr>:$decision_values,
    OptionalAttr<StrAttr>:$runtime_param);
  let assemblyFormat =
      "custom<Kind>($transform_type) ($value^)? prop-dict attr-dict";
  let hasVerifier = 1;
}

def Approx_SafetyContractOp : Approx_Op<"safety_contract", [
    HasParent<"KnobOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Try-check-recover guard around an approximate knob";
  let description = [{
    The knob's (approximate) results are passed, followed by the enclosing
    function's arguments, to `checker`, which returns i1. When it returns
    false, `recover` is called on the function's arguments and its results
    replace the knob's results.

    Signatures: `checker : (results..., args...) -> i1`,
    `recover : (args...) -> (results...)`.

    Example:
    `approx.safety_contract <{checker = @check, recover = @exact}>`
  }];
  let arguments = (ins FlatSymbolRefAttr:$checker, FlatSymbolRefAttr:$recover);
  let assemblyFormat = "prop-dict attr-dict";
}

def Approx_RuntimeParamOp : Approx_Op<"runtime_param", [
    MemoryEffects<[MemRead]>]> {
  let summary = "Reads one tunable parameter from the runtime knob table";
  let description = [{
    The current value of the tunable parameter `name` in the approx
    runtime (`approx_runtime.h`): the value set through `APPROX_CONFIG` or
    the runtime's C API, else `default_value` (the value configured at
    compile time). `transform-approx` creates these for runtime-table
    builds (`config-approx mode=runtime`); `lower-approx-runtime` lowers
    them to the runtime's ABI, which is defined by its public header alone.

    Example:
    `%t = approx.runtime_param <{default_value = 5 : i32, name = "f_threshold_0"}> : i32`
  }];
  let arguments = (ins StrAttr:$name, I32Attr:$default_value);
  let results = (outs I32:$result);
  let assemblyFormat = "prop-dict attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Annotation ops (the seed's module-level format)
//===----------------------------------------------------------------------===//

class Approx_AnnotationOp<string mnemonic, list<Trait> traits = []>
    : Approx_Op<"util.annotation." # mnemonic, !listconcat(traits, [
        HasParent<"::mlir::ModuleOp">,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let hasVerifier = 1;
}

def Approx_DecisionTreeAnnotationOp : Approx_AnnotationOp<"decision_tree"> {
  let summary = "Requests a state-driven decision tree on a function or one of its loops";
  let description = [{
    The seed's annotation, accepted in its generic form unchanged:
    ```mlir
    "approx.util.annotation.decision_tree"() <{func_name = "choose_cluster",
        transform_type = "loop_perforate", state_indices = array<i64: 5>,
        state_function = "approx_state_identity", num_thresholds = 1 : i32,
        thresholds_uppers = array<i32: 20>, thresholds_lowers = array<i32: 1>,
        decision_values = array<i32: 0, 1, 2, 3, 4>, thresholds = array<i32: 8>,
        decisions = array<i32: 1, 2>}> : () -> ()
    ```
    `state_function` must have type `(selected argument types) -> i32`;
    a negative state index counts from the last argument. Extensions:
    `loop_path` selects one loop of the function instead of its body
    (indices of the loop among the loops at each nesting level, outermost
    first), `knob_name` names the knob (needed when a function has several),
    and `callee` names the function whose calls a region-level
    `func_substitute` replaces.
  }];
  let arguments = (ins
    StrAttr:$func_name,
    StrAttr:$transform_type,
    DenseI64ArrayAttr:$state_indices,
    StrAttr:$state_function,
    DenseI32ArrayAttr:$thresholds,
    DenseI32ArrayAttr:$decisions,
    OptionalAttr<DenseI32ArrayAttr>:$thresholds_lowers,
    OptionalAttr<DenseI32ArrayAttr>:$thresholds_uppers,
    OptionalAttr<DenseI32ArrayAttr>:$decision_values,
    OptionalAttr<I32Attr>:$num_thresholds,
    OptionalAttr<StrAttr>:$knob_name,
    OptionalAttr<DenseI64ArrayAttr>:$loop_path,
    OptionalAttr<StrAttr>:$callee);
  let extraClassDeclaration = [{
    /// The transform kind `transform_type` names (the op is verified).
    ::approx::TransformKind getKind() {
      return *::approx::symbolizeTransformKind(getTransformType());
    }
  }];
  let assemblyFormat = "prop-dict attr-dict";
}

def Approx_StaticTransformAnnotationOp : Approx_AnnotationOp<"static_transform"> {
  let summary = "Requests a fixed transform on a function or one of its loops";
  let description = [{
    ```mlir
    approx.util.annotation.static_transform <{func_name = "sum",
        transform_type = "loop_perforate", knob_val = 2 : i32}>
    ```
    `knob_name`, `loop_path` and `callee` as for the decision-tree
    annotation; `decision_values` lists the values a tuner may choose.
  }];
  let arguments = (ins
    StrAttr:$func_name,
    StrAttr:$transform_type,
    I32Attr:$knob_val,
    OptionalAttr<DenseI32ArrayAttr>:$decision_values,
    OptionalAttr<StrAttr>:$knob_name,
    OptionalAttr<DenseI64ArrayAttr>:$loop_path,
    OptionalAttr<StrAttr>:$callee);
  let extraClassDeclaration = [{
    /// The transform kind `transform_type` names (the op is verified).
    ::approx::TransformKind getKind() {
      return *::approx::symbolizeTransformKind(getTransformType());
    }
  }];
  let assemblyFormat = "prop-dict attr-dict";
}

def Approx_SafetyContractAnnotationOp : Approx_AnnotationOp<"safety_contract"> {
  let summary = "Requests a try-check-recover contract on a knob";
  let description = [{
    Attaches to the knob of `func_name` (and `knob_name`/`loop_path`), which
    must also carry a transform annotation.
    ```mlir
    approx.util.annotation.safety_contract <{func_name = "f",
        checker = "check_f", recover = "f_exact"}>
    ```
  }];
  let arguments = (ins
    StrAttr:$func_name,
    StrAttr:$checker,
    StrAttr:$recover,
    OptionalAttr<StrAttr>:$knob_name,
    OptionalAttr<DenseI64ArrayAttr>:$loop_path);
  let assemblyFormat = "prop-dict attr-dict";
}

def Approx_ConvertToCallAnnotationOp : Approx_AnnotationOp<"convert_to_call"> {
  let summary = "Outlines a function's body into a call to an exact copy";
  let description = [{
    `emit-approx` moves the body of `func_name` into a private function
    `__approx_exact_<func_name>` and makes `func_name` call it, so that the
    exact path of a whole-function `func_substitute` knob is one call.
    ```mlir
    "approx.util.annotation.convert_to_call"() <{func_name = "update_node_rank"}> : () -> ()
    ```
  }];
  let arguments = (ins StrAttr:$func_name);
  let assemblyFormat = "prop-dict attr-dict";
}

#endif // APPROX_OPS_TD
