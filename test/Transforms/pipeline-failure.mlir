// A failure late in the pipeline (here in transform-approx, after
// emit-approx and emit-management succeeded) is a non-zero exit with a
// located error, and no half-transformed IR is printed.
// RUN: not approx-opt %s --approx-pipeline > %t.out 2> %t.err
// RUN: count 0 < %t.out
// RUN: FileCheck %s < %t.err

func.func @f(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}
approx.util.annotation.static_transform <{func_name = "f", transform_type = "loop_perforate", knob_val = 2 : i32}>

// CHECK: pipeline-failure.mlir:8:1: error: 'approx.knob' op loop_perforate: the knob contains no scf.for or scf.while
