// Perforated (and truncated) loops whose induction variable is narrow, or
// whose step times the knob value overflows, run exactly the iterations
// they keep (ceil(n / k) of the exact loop's n): they used to get a
// negative step, an increment or a span that wrapped around, and looped
// forever or not at all.
//
// RUN: approx-compile %s %S/Inputs/narrow_perforation.c --approx-exact -o %t.exact
// RUN: %t.exact | FileCheck %s --check-prefix=EXACT
// RUN: approx-compile %s %S/Inputs/narrow_perforation.c -o %t.baked
// RUN: %t.baked | FileCheck %s --check-prefix=PERFORATED
// RUN: approx-compile %s %S/Inputs/narrow_perforation.c --approx-runtime-table -o %t.table
// RUN: %t.table | FileCheck %s --check-prefix=PERFORATED
// RUN: echo '{"for_i8_knob_val": 0, "for_i8_step_knob_val": 0, "for_i32_step_knob_val": 0, "while_i8_knob_val": 0, "for_u8_knob_val": 0, "for_index_step_knob_val": 0, "trunc_i8_knob_val": 0, "trunc_i64_knob_val": 0, "trunc_start_index_knob_val": 0}' > %t.exact.json
// RUN: env APPROX_CONFIG=%t.exact.json %t.table | FileCheck %s --check-prefix=EXACT

// EXACT: for_i8 127
// EXACT: for_i8_step 1
// EXACT: for_i32_step 3
// EXACT: while_i8 127
// EXACT: for_u8 255
// EXACT: for_index_step 3
// EXACT: trunc_i8 200
// EXACT: trunc_i64 6
// EXACT: trunc_start_index 6
// PERFORATED: for_i8 2
// PERFORATED: for_i8_step 1
// PERFORATED: for_i32_step 1
// PERFORATED: while_i8 2
// PERFORATED: for_u8 2
// PERFORATED: for_index_step 1
// PERFORATED: trunc_i8 100
// PERFORATED: trunc_i64 3
// PERFORATED: trunc_start_index 2

func.func @for_i8(%ub: i8) -> i32 {
  %c0 = arith.constant 0 : i8
  %c1 = arith.constant 1 : i8
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%n = %z) -> i32 : i8 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @for_i8_step(%lb: i8, %ub: i8, %step: i8) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %z) -> i32 : i8 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @for_i32_step(%ub: i32, %step: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %ub step %step iter_args(%n = %z) -> i32 : i32 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @while_i8(%ub: i8) -> i32 {
  %c0 = arith.constant 0 : i8
  %c1 = arith.constant 1 : i8
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %n = %z) : (i8, i32) -> (i8, i32) {
    %c = arith.cmpi slt, %i, %ub : i8
    scf.condition(%c) %i, %n : i8, i32
  } do {
  ^bb0(%j: i8, %m: i32):
    %j2 = arith.addi %j, %c1 : i8
    %m2 = arith.addi %m, %one : i32
    scf.yield %j2, %m2 : i8, i32
  }
  return %r#1 : i32
}
// An unsigned loop over all of u8 but 255.
func.func @for_u8(%ub: i8) -> i32 {
  %c0 = arith.constant 0 : i8
  %c1 = arith.constant 1 : i8
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for unsigned %i = %c0 to %ub step %c1 iter_args(%n = %z) -> i32 : i8 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @for_index_step(%ub: index, %step: index) -> i32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %ub step %step iter_args(%n = %z) -> i32 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
// loop_truncate_end over i8 from -100 to 100: its span (200) does not fit
// i8 (the truncated loop used to run no iteration at all).
func.func @trunc_i8(%lb: i8, %ub: i8) -> i32 {
  %c1 = arith.constant 1 : i8
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%n = %z) -> i32 : i8 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
// 64-bit and index loops whose span (ub - lb) is past 2^63: 6 iterations.
func.func @trunc_i64(%lb: i64, %ub: i64, %step: i64) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %z) -> i32 : i64 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @trunc_start_index(%lb: index, %ub: index, %step: index) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %z) -> i32 {
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  return %r : i32
}
approx.util.annotation.static_transform <{func_name = "trunc_i8", transform_type = "loop_truncate_end", knob_val = 2 : i32}>
approx.util.annotation.static_transform <{func_name = "trunc_i64", transform_type = "loop_truncate_end", knob_val = 2 : i32}>
approx.util.annotation.static_transform <{func_name = "trunc_start_index", transform_type = "loop_truncate_start", knob_val = 4 : i32}>
approx.util.annotation.static_transform <{func_name = "for_i8", transform_type = "loop_perforate", knob_val = 100 : i32}>
approx.util.annotation.static_transform <{func_name = "for_i8_step", transform_type = "loop_perforate", knob_val = 2 : i32}>
approx.util.annotation.static_transform <{func_name = "for_i32_step", transform_type = "loop_perforate", knob_val = 4 : i32}>
approx.util.annotation.static_transform <{func_name = "while_i8", transform_type = "loop_perforate", knob_val = 100 : i32}>
approx.util.annotation.static_transform <{func_name = "for_u8", transform_type = "loop_perforate", knob_val = 200 : i32}>
approx.util.annotation.static_transform <{func_name = "for_index_step", transform_type = "loop_perforate", knob_val = 8 : i32}>
