// Runtime-table builds give each knob function called in a loop, and each
// knob function its copy calls, an exact copy (clone-exact-approx), and its
// calls test the table's decisions and knob values (dispatch-exact-approx):
// all 0 runs the copy, the exact build's code.
// RUN: approx-opt %s --emit-approx --emit-management --config-approx=mode=runtime --clone-exact-approx | FileCheck %s --check-prefix=CLONE
// RUN: approx-opt %s --approx-pipeline=mode=runtime | FileCheck %s --check-prefix=DISPATCH
// RUN: approx-opt %s --approx-pipeline | FileCheck %s --check-prefix=BAKED
// RUN: approx-opt %s --emit-approx --emit-management --config-approx --clone-exact-approx | FileCheck %s --check-prefix=BAKED

func.func private @s(i32) -> i32
func.func @leaf(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %i : i32
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @mid(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  %l = func.call @leaf(%n) : (i32) -> i32
  %t = arith.addi %r, %l : i32
  return %t : i32
}
func.func @top(%m: index, %n: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %j = %c0 to %m step %c1 iter_args(%a = %z) -> (i32) {
    %v = func.call @mid(%n) : (i32) -> i32
    %b = arith.addi %a, %v : i32
    scf.yield %b : i32
  }
  %o = func.call @leaf(%n) : (i32) -> i32
  %t = arith.addi %r, %o : i32
  return %t : i32
}
func.func @once(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @main(%n: i32) -> i32 {
  %c4 = arith.constant 4 : index
  %a = func.call @top(%c4, %n) : (index, i32) -> i32
  %b = func.call @once(%n) : (i32) -> i32
  %t = arith.addi %a, %b : i32
  return %t : i32
}
approx.util.annotation.decision_tree <{func_name = "leaf", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "s", thresholds = array<i32: 8>, decisions = array<i32: 0, 2>, thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 100>, decision_values = array<i32: 0, 2, 3>}>
approx.util.annotation.static_transform <{func_name = "mid", transform_type = "loop_perforate", knob_val = 0 : i32, decision_values = array<i32: 0, 2>}>
approx.util.annotation.static_transform <{func_name = "once", transform_type = "loop_perforate", knob_val = 2 : i32}>

// @leaf keeps its knob and names its copy and the parameters (with their
// defaults) that make the copy exact: its decisions, not its threshold.
// CLONE-LABEL: func.func @leaf(%{{.*}}: i32) -> i32 attributes {approx.exact_copy = @__approx_exact_leaf, approx.exact_when = {leaf_decision_0 = 0 : i32, leaf_decision_1 = 2 : i32}}
// CLONE:         approx.decision_tree
// The copy: private, the knob inlined without its state call and tree.
// CLONE-LABEL: func.func private @__approx_exact_leaf(
// CLONE-NOT:     approx.
// CLONE-NOT:     call @s
// CLONE:         scf.for
// CLONE:         return
// @mid (called in @top's loop) is exact when its knob value and @leaf's
// decisions are 0; its copy calls @leaf's copy.
// CLONE-LABEL: func.func @mid(%{{.*}}: i32) -> i32 attributes {approx.exact_copy = @__approx_exact_mid, approx.exact_when = {leaf_decision_0 = 0 : i32, leaf_decision_1 = 2 : i32, mid_knob_val = 0 : i32}}
// CLONE:         approx.transform loop_perforate
// CLONE:         call @leaf(
// CLONE-LABEL: func.func private @__approx_exact_mid(
// CLONE-NOT:     approx.
// CLONE:         call @__approx_exact_leaf(
// @top has no knob and @once is not called in a loop: no copies.
// CLONE-LABEL: func.func @top(
// CLONE-NOT:     attributes
// CLONE-LABEL: func.func @once(
// CLONE-NOT:     __approx_exact_once

// Calls outside the copies test the parameters: in @top's loop, @mid's
// three (one load each, from the runtime table's cells); after it, @leaf's
// two. In @mid, the call to @leaf is dispatched too.
// DISPATCH-LABEL: func.func @mid(
// DISPATCH:         scf.if
// DISPATCH:           func.call @__approx_exact_leaf(
// DISPATCH:         } else {
// DISPATCH:           func.call @leaf(
// DISPATCH-LABEL: func.func private @__approx_exact_mid(
// DISPATCH-NOT:     scf.if
// DISPATCH:         call @__approx_exact_leaf(
// DISPATCH-LABEL: func.func @top(
// DISPATCH:         scf.for
// DISPATCH-COUNT-3:   llvm.load %{{.*}} atomic unordered
// DISPATCH:           %[[EXACT:.*]] = arith.andi
// DISPATCH-NEXT:      scf.if %[[EXACT]] -> (i32) {
// DISPATCH-NEXT:        func.call @__approx_exact_mid(
// DISPATCH-NEXT:        scf.yield
// DISPATCH-NEXT:      } else {
// DISPATCH-NEXT:        func.call @mid(
// DISPATCH:         llvm.load
// DISPATCH:         llvm.load
// DISPATCH:         scf.if
// DISPATCH-NEXT:      func.call @__approx_exact_leaf(
// DISPATCH:         } else {
// DISPATCH-NEXT:      func.call @leaf(
// DISPATCH-LABEL: func.func @main(
// DISPATCH-NOT:     scf.if
// DISPATCH:         return
// The attributes are gone, and no function has a copy of @once.
// DISPATCH-NOT:   approx.exact_
// DISPATCH-NOT:   __approx_exact_once

// Baked builds read no table: no copies.
// BAKED-NOT: __approx_exact
// BAKED-NOT: approx.exact_
