// RUN: approx-opt %s -split-input-file --emit-approx | FileCheck %s

// A whole-function knob: the body moves into the knob, the annotation goes.
func.func private @s(i32) -> i32
func.func @whole(%n: index, %k: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
    %b = arith.addi %a, %k : i32
    scf.yield %b : i32
  }
  return %r : i32
}
approx.util.annotation.decision_tree <{func_name = "whole", transform_type = "loop_perforate", state_indices = array<i64: -1>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 2>}>

// CHECK-LABEL: func.func @whole
// CHECK-NEXT:    %[[R:.*]] = approx.knob <{id = 0 : i32, name = "whole", params = {decision_tree = {{{.*}}func_name = "whole"{{.*}}}}, transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
// CHECK:           %[[L:.*]] = scf.for
// CHECK:           approx.yield %[[L]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : i32
// CHECK-NOT:   approx.util.annotation

// -----

// Several knobs in one function: one per loop (selected by loop_path) and
// one around the whole body, which wraps the loop knobs.
func.func private @s(i32) -> i32
func.func @multi(%n: index, %k: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> (i32) {
      %c = arith.addi %b, %k : i32
      scf.yield %c : i32
    }
    scf.yield %in : i32
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %r) -> (i32) {
    %b = arith.addi %a, %k : i32
    scf.yield %b : i32
  }
  return %r2 : i32
}
approx.util.annotation.static_transform <{func_name = "multi", transform_type = "loop_perforate", knob_val = 2 : i32, knob_name = "inner", loop_path = array<i64: 0, 0>}>
approx.util.annotation.static_transform <{func_name = "multi", transform_type = "loop_perforate", knob_val = 3 : i32, knob_name = "second", loop_path = array<i64: 1>}>
approx.util.annotation.decision_tree <{func_name = "multi", transform_type = "loop_perforate", state_indices = array<i64: -1>, state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 2>}>

// CHECK-LABEL: func.func @multi
// CHECK-NEXT:    %[[ALL:.*]] = approx.knob <{id = 2 : i32, name = "multi"
// CHECK:           %[[OUT:.*]] = scf.for
// CHECK:             %[[IN:.*]] = approx.knob <{id = 0 : i32, name = "multi_inner"
// CHECK-NEXT:          %[[L:.*]] = scf.for
// CHECK:               approx.yield %[[L]] : i32
// CHECK:             scf.yield %[[IN]] : i32
// CHECK:           %[[SEC:.*]] = approx.knob <{id = 1 : i32, name = "multi_second"
// CHECK-NEXT:        %[[L2:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]])
// CHECK:             approx.yield %[[L2]] : i32
// CHECK:           approx.yield %[[SEC]] : i32
// CHECK:         return %[[ALL]] : i32

// -----

// A body with several blocks keeps its CFG inside scf.execute_region.
func.func @cfg(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^a, ^b
^a:
  return %x : i32
^b:
  %y = arith.addi %x, %x : i32
  return %y : i32
}
approx.util.annotation.static_transform <{func_name = "cfg", transform_type = "task_skipping", knob_val = 1 : i32}>

// CHECK-LABEL: func.func @cfg(
// CHECK-SAME:    %{{.*}}: i1, %[[X:.*]]: i32)
// CHECK-NEXT:    %[[K:.*]] = approx.knob
// CHECK-NEXT:      %[[E:.*]] = scf.execute_region -> i32 {
// CHECK-NEXT:        cf.cond_br
// CHECK:             scf.yield %[[X]] : i32
// CHECK:             scf.yield %{{.*}} : i32
// CHECK:           approx.yield %[[E]] : i32
// CHECK:         return %[[K]] : i32

// -----

// convert_to_call outlines the body; the knob then wraps a single call.
func.func @approx_rank_1(%x: f64) -> f64 { return %x : f64 }
func.func @rank(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
approx.util.annotation.static_transform <{func_name = "rank", transform_type = "func_substitute", knob_val = 1 : i32}>
approx.util.annotation.convert_to_call <{func_name = "rank"}>

// CHECK-LABEL: func.func private @__approx_exact_rank(%{{.*}}: f64) -> f64
// CHECK-NEXT:    arith.mulf
// CHECK-LABEL: func.func @rank(
// CHECK-SAME:    %[[A:.*]]: f64) -> f64
// CHECK-NEXT:    %[[K:.*]] = approx.knob
// CHECK-NEXT:      %[[C:.*]] = func.call @__approx_exact_rank(%[[A]])
// CHECK-NEXT:      approx.yield %[[C]] : f64
// CHECK:         return %[[K]] : f64
