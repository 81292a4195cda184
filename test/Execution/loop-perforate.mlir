// loop_perforate on scf.for and scf.while, driven by a state; baked and
// runtime-table builds of the same configuration give the same results.
//
// RUN: approx-compile %s %S/Inputs/loop_perforate.c -o %t.default
// RUN: %t.default 10 20 0 2 4 | FileCheck %s
// RUN: approx-compile %s %S/Inputs/loop_perforate.c -o %t.baked --approx-config=%S/Inputs/loop_perforate.json
// RUN: %t.baked 3 30 1 3 8 > %t.baked.out
// RUN: FileCheck %s < %t.baked.out
// RUN: approx-compile %s %S/Inputs/loop_perforate.c -o %t.runtime --approx-runtime-table
// RUN: env APPROX_CONFIG=%S/Inputs/loop_perforate.json %t.runtime 3 30 1 3 8 > %t.runtime.out
// RUN: diff %t.baked.out %t.runtime.out
// Without a configuration the runtime-table build uses the annotation values.
// RUN: %t.runtime 10 20 0 2 4 | FileCheck %s
// RUN: approx-compile %s %S/Inputs/loop_perforate.c -o %t.exact --approx-exact
// RUN: %t.exact 10 20 0 0 0 | FileCheck %s

// CHECK: loop_perforate: all {{[0-9]+}} checks passed

func.func @approx_state_identity(%s: i32) -> i32 {
  return %s : i32
}

// mean of (i * 7) mod 13 over i in [0, n)
func.func @mean_for(%n: index, %state: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %z, %cnt = %z) -> (f64, f64) {
    %m = arith.muli %i, %c7 : index
    %v = arith.remui %m, %c13 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f64
    %s2 = arith.addf %sum, %vf : f64
    %c2 = arith.addf %cnt, %one : f64
    scf.yield %s2, %c2 : f64, f64
  }
  %mean = arith.divf %r#0, %r#1 : f64
  return %mean : f64
}

// the same with a top-tested while loop, as C compilers produce
func.func @mean_while(%n: i32, %state: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %c13 = arith.constant 13 : i32
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:3 = scf.while (%i = %c0, %sum = %z, %cnt = %z) : (i32, f64, f64) -> (i32, f64, f64) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %sum, %cnt : i32, f64, f64
  } do {
  ^bb0(%i2: i32, %sum2: f64, %cnt2: f64):
    %m = arith.muli %i2, %c7 : i32
    %v = arith.remui %m, %c13 : i32
    %vf = arith.sitofp %v : i32 to f64
    %s3 = arith.addf %sum2, %vf : f64
    %c3 = arith.addf %cnt2, %one : f64
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next, %s3, %c3 : i32, f64, f64
  }
  %mean = arith.divf %r#1, %r#2 : f64
  return %mean : f64
}

"approx.util.annotation.decision_tree"() <{func_name = "mean_for",
    transform_type = "loop_perforate", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 11>, thresholds_uppers = array<i32: 10, 40>,
    decisions = array<i32: 0, 2, 4>, decision_values = array<i32: 0, 1, 2, 3, 4, 8>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "mean_while",
    transform_type = "loop_perforate", state_indices = array<i64: 1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10, 20>,
    thresholds_lowers = array<i32: 0, 11>, thresholds_uppers = array<i32: 10, 40>,
    decisions = array<i32: 0, 2, 4>, decision_values = array<i32: 0, 1, 2, 3, 4, 8>}> : () -> ()
