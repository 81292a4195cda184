// RUN: approx-opt %s -split-input-file --finalize-approx | FileCheck %s

// Lowered knobs are inlined; their results become the yielded values.
func.func @f(%x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>], lowered}> -> i32 {
    %y = arith.addi %x, %x : i32
    approx.yield %y : i32
  }
  %z = arith.muli %r, %r : i32
  return %z : i32
}
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.*]]: i32)
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.muli %[[Y]], %[[Y]] : i32
// CHECK-NEXT:    return %[[Z]] : i32
// CHECK-NOT:   approx.
