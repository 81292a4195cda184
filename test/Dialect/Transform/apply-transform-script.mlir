// apply-transform-script: the script applied, then removed; with `knobs`,
// knobs for the approx pipeline (config-approx, --approx-exact, runtime
// tables) instead of in-place rewrites.
// RUN: approx-opt %s --apply-transform-script | FileCheck %s --check-prefix=INPLACE
// RUN: approx-opt %s --apply-transform-script=knobs=true | FileCheck %s --check-prefix=KNOBS
// The script is gone after one run, so a second run changes nothing.
// RUN: approx-opt %s --apply-transform-script --apply-transform-script | FileCheck %s --check-prefix=INPLACE
// Knobs next to the annotations' take the next ids.
// RUN: approx-opt %s --apply-transform-script=knobs=true --emit-approx | FileCheck %s --check-prefix=IDS
// A configuration sets a script knob's value as it sets an annotation's.
// RUN: echo '{"sum_loop_perforate_0_knob_val": 2}' > %t.json
// RUN: approx-opt %s --apply-transform-script=knobs=true --emit-approx --emit-management --config-approx=config=%t.json | FileCheck %s --check-prefix=CONFIG
// RUN: approx-opt %s --apply-transform-script=knobs=true --emit-approx --emit-management --config-approx=mode=runtime | FileCheck %s --check-prefix=RUNTIME
// A module without a script is left alone.
// RUN: approx-opt %S/../Approx/ops.mlir --apply-transform-script > %t.plain
// RUN: approx-opt %S/../Approx/ops.mlir > %t.ref
// RUN: diff %t.plain %t.ref

module attributes {transform.with_named_sequence} {
  func.func @sum(%n: index, %x: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    return %l : i32
  }
  func.func @other(%x: i32) -> i32 {
    return %x : i32
  }
  approx.util.annotation.static_transform <{func_name = "other", transform_type = "loop_perforate", knob_val = 0 : i32}>
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"perf"> = 4 from options = [0, 2, 4] -> !transform.param<i64>
    transform.approx.loop_perforate %loop by %k : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// INPLACE-NOT: transform.
// INPLACE-LABEL: func.func @sum
// INPLACE-NOT:   approx.knob
// INPLACE:       scf.for
// INPLACE-NOT:   transform.

// KNOBS-NOT: transform.
// KNOBS-LABEL: func.func @sum
// KNOBS:       %[[R:.*]] = approx.knob <{id = 0 : i32, name = "sum_loop_perforate_0", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
// KNOBS-NEXT:    approx.transform loop_perforate <{decision_values = array<i32: 0, 2, 4>, knob_val = 4 : i32}>
// KNOBS-NEXT:    scf.for
// KNOBS:         approx.yield
// KNOBS:       return %[[R]]
// KNOBS-NOT: transform.

// IDS: approx.knob <{id = 0 : i32, name = "sum_loop_perforate_0"
// IDS: approx.knob <{id = 1 : i32, name = "other"

// CONFIG: approx.transform loop_perforate <{decision_values = array<i32: 0, 2, 4>, knob_val = 2 : i32}>

// RUNTIME: approx.transform loop_perforate <{decision_values = array<i32: 0, 2, 4>, knob_val = 4 : i32, runtime_param = "sum_loop_perforate_0_knob_val"}>
