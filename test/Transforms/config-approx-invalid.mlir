// Bad configurations are located errors and produce no output.
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-unknown.json 2>&1 >/dev/null | FileCheck %s --check-prefix=UNKNOWN
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-descending.json 2>&1 >/dev/null | FileCheck %s --check-prefix=DESC
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-bounds.json 2>&1 >/dev/null | FileCheck %s --check-prefix=BOUNDS
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-decision.json 2>&1 >/dev/null | FileCheck %s --check-prefix=DECISION
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-float.json 2>&1 >/dev/null | FileCheck %s --check-prefix=FLOAT
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/config-broken.json 2>&1 >/dev/null | FileCheck %s --check-prefix=BROKEN
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=config=%S/Inputs/does-not-exist.json 2>&1 >/dev/null | FileCheck %s --check-prefix=MISSING
// RUN: not approx-opt %s --emit-approx --emit-management --config-approx=mode=fast 2>&1 >/dev/null | FileCheck %s --check-prefix=MODE
// RUN: not approx-opt %s --approx-pipeline=config=%S/Inputs/config-unknown.json > %t.out 2>/dev/null
// RUN: count 0 < %t.out

func.func private @s(i32) -> i32
func.func @f(%x: i32) -> i32 { return %x : i32 }
approx.util.annotation.decision_tree <{func_name = "f", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 5, 10>, decisions = array<i32: 0, 2, 3>, thresholds_lowers = array<i32: 0, 6>, thresholds_uppers = array<i32: 15, 20>, decision_values = array<i32: 0, 1, 2, 3>}>

// UNKNOWN: config-unknown.json:3:3: error: unknown parameter 'f_thrshold_1' (did you mean 'f_threshold_1'?); this program's parameters are: f_threshold_0, f_threshold_1, f_decision_0, f_decision_1, f_decision_2
// DESC: error: 'approx.decision_tree' op thresholds must be strictly ascending, but threshold 1 (10) <= threshold 0 (15)
// DESC: remark: after applying configuration '{{.*}}config-descending.json'
// BOUNDS: error: 'approx.decision_tree' op threshold 1 (50) is outside its bounds [6, 20]
// DECISION: error: 'approx.decision_tree' op decision 0 (7) is not one of decision_values
// FLOAT: config-float.json:1:2: error: value of 'f_threshold_0' must be an integer
// BROKEN: config-broken.json:1:1: error: invalid JSON: [2:0, byte=21]: Expected object key
// MISSING: does-not-exist.json:1:1: error: cannot read configuration: No such file or directory
// MODE: error: config-approx: mode must be 'baked' or 'runtime', got 'fast'
