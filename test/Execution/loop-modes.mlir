// The loop perforation modes beyond stride, driven by a state: truncation
// of the last / first iterations and seeded random skipping. Each divides
// the work of the loop by k; the driver predicts the truncated results
// exactly, checks random skipping's share of iterations statistically and
// its determinism, and checks the QoS of all three against the exact loop.
// Baked and runtime-table builds of one configuration agree.
//
// RUN: approx-compile %s %S/Inputs/loop_modes.c -o %t.default
// RUN: %t.default 10 0 4 | FileCheck %s
// RUN: approx-compile %s %S/Inputs/loop_modes.c -o %t.baked --approx-config=%S/Inputs/loop_modes.json
// RUN: %t.baked 5 2 8 > %t.baked.out
// RUN: FileCheck %s < %t.baked.out
// RUN: approx-compile %s %S/Inputs/loop_modes.c -o %t.runtime --approx-runtime-table
// RUN: env APPROX_CONFIG=%S/Inputs/loop_modes.json %t.runtime 5 2 8 > %t.runtime.out
// RUN: diff %t.baked.out %t.runtime.out
// RUN: approx-compile %s %S/Inputs/loop_modes.c -o %t.exact --approx-exact
// RUN: %t.exact 10 0 0 | FileCheck %s

// CHECK: loop_modes: all {{[0-9]+}} checks passed

func.func @approx_state_identity(%s: i32) -> i32 {
  return %s : i32
}

// sum and count of (i * 7) mod 13 over i = 5, 8, 11, ... < n: the loop each
// mode approximates (a non-zero lower bound and a step of 3 exercise the
// trip-count arithmetic).
func.func @sum_end(%n: index, %state: i32) -> (f64, f64) {
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c5 to %n step %c3 iter_args(%sum = %z, %cnt = %z) -> (f64, f64) {
    %m = arith.muli %i, %c7 : index
    %v = arith.remui %m, %c13 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f64
    %s2 = arith.addf %sum, %vf : f64
    %c2 = arith.addf %cnt, %one : f64
    scf.yield %s2, %c2 : f64, f64
  }
  return %r#0, %r#1 : f64, f64
}

func.func @sum_start(%n: index, %state: i32) -> (f64, f64) {
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c5 to %n step %c3 iter_args(%sum = %z, %cnt = %z) -> (f64, f64) {
    %m = arith.muli %i, %c7 : index
    %v = arith.remui %m, %c13 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f64
    %s2 = arith.addf %sum, %vf : f64
    %c2 = arith.addf %cnt, %one : f64
    scf.yield %s2, %c2 : f64, f64
  }
  return %r#0, %r#1 : f64, f64
}

func.func @sum_random(%n: i32, %state: i32) -> (f64, f64) {
  %c5 = arith.constant 5 : i32
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i32
  %c13 = arith.constant 13 : i32
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c5 to %n step %c3 iter_args(%sum = %z, %cnt = %z) -> (f64, f64) : i32 {
    %m = arith.muli %i, %c7 : i32
    %v = arith.remui %m, %c13 : i32
    %vf = arith.sitofp %v : i32 to f64
    %s2 = arith.addf %sum, %vf : f64
    %c2 = arith.addf %cnt, %one : f64
    scf.yield %s2, %c2 : f64, f64
  }
  return %r#0, %r#1 : f64, f64
}

"approx.util.annotation.decision_tree"() <{func_name = "sum_end",
    transform_type = "loop_truncate_end", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 40>,
    decisions = array<i32: 0, 4>, decision_values = array<i32: 0, 1, 2, 4, 8>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "sum_start",
    transform_type = "loop_truncate_start", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 40>,
    decisions = array<i32: 0, 4>, decision_values = array<i32: 0, 1, 2, 4, 8>}> : () -> ()
"approx.util.annotation.decision_tree"() <{func_name = "sum_random",
    transform_type = "loop_random_skip", state_indices = array<i64: -1>,
    state_function = "approx_state_identity", thresholds = array<i32: 10>,
    thresholds_lowers = array<i32: 0>, thresholds_uppers = array<i32: 40>,
    decisions = array<i32: 0, 4>, decision_values = array<i32: 0, 1, 2, 4, 8>}> : () -> ()
