// Annotation ops in MLIR's generic form: MLIR's parser drops property keys
// an op does not have, so every tool checks them in the text first.
// RUN: not approx-opt %s 2>&1 | FileCheck %s
// RUN: not approx-tune --space %s --list 2>&1 | FileCheck %s
// RUN: not approx-compile %s -c -o %t.o 2>&1 | FileCheck %s
// Without the misspelled lines, the same text is fine:
// RUN: grep -v TYPO %s | approx-opt - | FileCheck %s --check-prefix=OK

func.func @s(%x: i32) -> i32 { return %x : i32 }
func.func @f(%x: i32) -> i32 { return %x : i32 }
func.func private @g(i32) -> i32 attributes {note = "approx.util.annotation.decision_tree"}

// CHECK: generic-form-keys.mlir:[[@LINE+6]]:3: error: 'approx.util.annotation.decision_tree' op unknown attribute 'thresholds_lower' (did you mean 'thresholds_lowers'?) (MLIR's generic form would drop it)
"approx.util.annotation.decision_tree"() <{func_name = "f",
  transform_type = "loop_perforate", state_indices = array<i64: 0>,
  state_function = "s", thresholds = array<i32: 5>,
  knob_name = "a}>,b",
  decisions = array<i32: 0, 2>,
  thresholds_lower = array<i32: 0>, // TYPO
  thresholds_uppers = array<i32: 9>, thresholds_lowers = array<i32: 0>}> : () -> ()

// CHECK: generic-form-keys.mlir:[[@LINE+2]]:5: error: 'approx.util.annotation.static_transform' op unknown attribute 'knob_value' (did you mean 'knob_val'?)
"approx.util.annotation.static_transform"() <{func_name = "f",
    knob_value = 2 : i32, // TYPO
    transform_type = "loop_perforate", knob_val = 2 : i32, knob_name = "b"}> : () -> ()

// CHECK: generic-form-keys.mlir:[[@LINE+2]]:5: error: 'approx.util.annotation.convert_to_call' op unknown attribute 'func_nam' (did you mean 'func_name'?)
"approx.util.annotation.convert_to_call"() <{
    "func_nam" = "f", // TYPO
    func_name = "f"}> : () -> ()

// OK: approx.util.annotation.decision_tree <{
// OK-SAME: knob_name = "a}>,b"
// OK-SAME: thresholds_lowers = array<i32: 0>
