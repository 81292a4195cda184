// RUN: approx-opt %s --emit-approx --emit-management --config-approx | FileCheck %s --check-prefix=DEFAULT
// RUN: approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-ok.json | FileCheck %s --check-prefix=JSON
// RUN: approx-opt %s --emit-approx --emit-management "--config-approx=config=%S/Inputs/config-ok.json mode=runtime" | FileCheck %s --check-prefix=RUNTIME
// RUN: approx-opt %s --emit-approx --emit-management --config-approx=exact=true | FileCheck %s --check-prefix=EXACT

func.func private @s(i32) -> i32
func.func private @ok(i32, i32) -> i1
func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func @g(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5, 10>, decisions = array<i32: 0, 2, 3>, thresholds_lowers = array<i32: 0, 6>, thresholds_uppers = array<i32: 5, 20>, decision_values = array<i32: 0, 1, 2, 3>}>
approx.util.annotation.safety_contract <{func_name = "f", checker = "ok", recover = "f"}>
approx.util.annotation.static_transform <{func_name = "g", knob_name = "loop", loop_path = array<i64: 0>, transform_type = "loop_perforate", knob_val = 2 : i32}>

// DEFAULT: approx.decision_tree loop_perforate %{{.*}} <{{{.*}}decisions = array<i32: 0, 2, 3>{{.*}}thresholds = array<i32: 5, 10>
// DEFAULT: approx.safety_contract
// DEFAULT: approx.transform loop_perforate <{knob_val = 2 : i32}>

// JSON: approx.decision_tree loop_perforate %{{.*}} <{{{.*}}decisions = array<i32: 0, 2, 1>{{.*}}thresholds = array<i32: 3, 12>
// JSON: approx.transform loop_perforate <{knob_val = 4 : i32}>

// RUNTIME: approx.decision_tree loop_perforate %{{.*}} <{{{.*}}runtime_params = ["f_threshold_0", "f_threshold_1", "f_decision_0", "f_decision_1", "f_decision_2"]{{.*}}thresholds = array<i32: 3, 12>
// RUNTIME: approx.transform loop_perforate <{knob_val = 4 : i32, runtime_param = "g_loop_knob_val"}>

// EXACT-LABEL: func.func @f(
// EXACT-NOT:     func.call @s
// EXACT:         approx.transform loop_perforate <{knob_val = 0 : i32}>
// EXACT-NOT:     approx.safety_contract
// EXACT:         approx.transform loop_perforate <{knob_val = 0 : i32}>
