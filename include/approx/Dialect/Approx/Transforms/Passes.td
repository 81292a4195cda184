//===- Passes.td - approx-opt passes -----------------------*- tablegen -*-===//
#ifndef APPROX_TRANSFORMS_PASSES_TD
#define APPROX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ApplyTransformScript : Pass<"apply-transform-script", "::mlir::ModuleOp"> {
  let summary = "Apply the module's transform script (@__transform_main), then remove it";
  let description = [{
    When the module holds `transform.named_sequence @__transform_main`,
    applies it to the module as upstream's `--transform-interpreter` does,
    then erases the script (the module's top-level Transform-dialect ops)
    and its `transform.with_named_sequence` attribute, so that the module
    lowers. A module without one is left as it is.

    `knobs` asks transform.approx.* ops for approx.knob regions instead of
    in-place rewrites (the payload module carries `approx.transform_knobs`
    while the script runs); their values are then parameters
    `<knob>_knob_val` that a configuration, `exact` and a runtime table
    set as they set the annotations'. The approx pipeline runs this pass
    first, with `knobs` for runtime-table and exact builds.

    `config` names a JSON configuration (config-approx's): its entries
    named like a `transform.tune.knob` or `transform.tune.alternatives` of
    the script resolve that choice before the script runs (a value not
    among the options is an error). The values taken are recorded in the
    module attribute `approx.schedule`, for config-approx to count as used.
  }];
  let options = [
    Option<"configPath", "config", "std::string", /*default=*/"",
           "JSON configuration whose schedule parameters (tune.knob / "
           "tune.alternatives names) resolve the script's choices">,
    Option<"knobs", "knobs", "bool", /*default=*/"false",
           "transform.approx.* ops emit approx.knob regions for the approx "
           "pipeline instead of rewriting in place">,
  ];
  let dependentDialects = ["::approx::ApproxDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::math::MathDialect"];
}

def EmitApprox : Pass<"emit-approx", "::mlir::ModuleOp"> {
  let summary = "Turn approx.util.annotation.* ops into approx.knob regions";
  let description = [{
    Each annotation (or group of annotations with the same `func_name`,
    `knob_name` and `loop_path`) becomes one `approx.knob` around the
    targeted region: the whole function body, or the loop selected by
    `loop_path`. The management request is stored in the knob's `params`;
    `convert_to_call` outlines the function body into
    `__approx_exact_<func>`. The annotation ops disappear. Knob ids are
    assigned in order of appearance; names are `<func>` or
    `<func>_<knob_name>`.
  }];
  let dependentDialects = ["::approx::ApproxDialect", "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def EmitManagement : Pass<"emit-management", "::mlir::ModuleOp"> {
  let summary = "Materialise decision trees, static transforms and safety contracts in knobs";
  let description = [{
    For every knob with `params`: a decision tree becomes a call of the
    state function on the function arguments picked by `state_indices`
    (negative counts from the end) followed by `approx.decision_tree`; a
    static transform becomes `approx.transform`; a safety contract becomes
    `approx.safety_contract`. `params` is removed.
  }];
  let dependentDialects = ["::approx::ApproxDialect", "::mlir::func::FuncDialect"];
}

def ConfigApprox : Pass<"config-approx", "::mlir::ModuleOp"> {
  let summary = "Apply a knob configuration (baked constants or a runtime table)";
  let description = [{
    By default the values written in the annotations are kept. `config`
    names a JSON object mapping parameter names to integers:
    `<knob>_threshold_<i>`, `<knob>_decision_<j>` (decision trees) and
    `<knob>_knob_val` (static transforms), where `<knob>` is the knob name
    (the function name, or `<func>_<knob_name>`). Unknown names, values out
    of bounds, thresholds that are not ascending and decisions outside
    `decision_values` are errors. `exact` builds the exact program: every
    knob value 0, no state function calls, no safety contracts.

    `mode=baked` (default) keeps the values as constants. `mode=runtime`
    marks every parameter to be read from the approx runtime knob table
    (`approx_rt_param`), so one build serves every configuration; the
    configured values become the defaults.
  }];
  let options = [
    Option<"configPath", "config", "std::string", /*default=*/"",
           "JSON file with parameter values (seed names)">,
    Option<"mode", "mode", "std::string", /*default=*/"\"baked\"",
           "baked: constants; runtime: read from the runtime knob table">,
    Option<"exact", "exact", "bool", /*default=*/"false",
           "Set every knob value to 0 (the exact program)">,
    Option<"otherUnits", "other-units", "bool", /*default=*/"false",
           "The configuration also sets parameters of other translation "
           "units of the program: names this module lacks are not errors "
           "(approx-cc checks them against the whole program)">,
  ];
}

def CloneExactApprox : Pass<"clone-exact-approx", "::mlir::ModuleOp"> {
  let summary = "Runtime-table builds: an exact copy of each knob function called in a loop";
  let description = [{
    Runs after `config-approx mode=runtime` (it does nothing to a baked
    build). A function whose knobs all read the runtime table and that is
    called inside a loop, and every such function its copy calls, gets an
    exact copy `__approx_exact_<name>` (private): its knobs inlined without
    their decision trees, transforms and safety contracts, as the exact
    build has them, and its calls to other copied functions going to their
    copies. The function records its copy and the table parameters that
    must all be 0 for the copy to compute what the function computes (its
    own decisions and knob values, and those of every copy it calls);
    `dispatch-exact-approx` turns its calls into the choice between the two.
    A symbol of the copy's name in the program is an error.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect"];
}

def DispatchExactApprox : Pass<"dispatch-exact-approx", "::mlir::ModuleOp"> {
  let summary = "Runtime-table builds: calls run the exact copy while the table holds the exact values";
  let description = [{
    Runs after `finalize-approx`. Every call to a function that
    `clone-exact-approx` copied (outside the copies) becomes an `scf.if` on
    the function's recorded table parameters all being 0: the exact copy
    when they are, the function otherwise. The parameters are
    `approx.runtime_param` reads, which the optimiser hoists out of the
    loop around the call, so the exact configuration of a runtime-table
    build runs the exact build's code behind one branch per call.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TransformApprox : Pass<"transform-approx", "::mlir::ModuleOp"> {
  let summary = "Lower decision trees to arith + scf.index_switch and apply transforms";
  let description = [{
    A driver over `populate…Patterns` (Patterns.h): knobs are visited inner
    first. A decision tree becomes `arith` comparisons counting the
    thresholds <= state and an `scf.index_switch` selecting the knob value;
    the transform is then applied by the pattern of its kind, changing only
    what it must: loop_perforate scales the step of the knob's outermost
    `scf.for` (or the induction increment of an `scf.while`);
    loop_truncate_end/start narrow its bounds; loop_random_skip guards its
    body with a hash of the iteration; func_substitute dispatches the
    substituted call(s) over the variants; task_skipping rewrites the
    condition/selector of the first `scf.if`/`scf.index_switch`. On linalg
    code, loop_perforate samples every k-th element of a sum reduction and
    rescales; decode_quantize runs the knob's f32 matmuls in int8 with i32
    accumulation; precision_reduce rounds the f32 inputs of its linalg ops
    to f16/bf16. Safety
    contracts become checker call + `scf.if` + recover call. Runtime-table
    parameters become `approx.runtime_param` reads.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::math::MathDialect"];
}

def LowerApproxRuntime : Pass<"lower-approx-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower approx.runtime_param to the runtime's knob table";
  let description = [{
    Each `approx.runtime_param` gets an entry (dense, in program order) in
    the module's array of slot numbers and becomes two unordered, alias-tagged
    loads (its slot number, then the value in the runtime's exported table);
    the module's constructor calls `approx_rt_param` for every entry, which
    registers it, applies `APPROX_CONFIG` and fills in the slot number. Names
    and layout come from the runtime's public header `approx_runtime.h` alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def FinalizeApprox : Pass<"finalize-approx", "::mlir::ModuleOp"> {
  let summary = "Inline knobs; fail if anything of the approx dialect remains";
  let description = [{
    Every transformed `approx.knob` is inlined into its parent. Any approx
    op left (an annotation not consumed, a knob still holding a management
    op) is an error: the pass fails rather than print half-transformed IR.
    `approx.runtime_param` reads stay for `lower-approx-runtime`.
  }];
}

#endif // APPROX_TRANSFORMS_PASSES_TD
