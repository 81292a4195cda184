// RUN: approx-opt %s -split-input-file -verify-diagnostics --transform-approx

func.func @f(%x: i32) -> i32 {
  // expected-error @+1 {{loop_perforate: the knob contains no scf.for or scf.while}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    approx.transform loop_perforate <{knob_val = 2 : i32}>
    approx.yield %x : i32
  }
  return %r : i32
}

// -----

func.func private @next(i32) -> i32
func.func @f(%n: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 2 : i32}>
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{loop_perforate: cannot find the induction variable of this scf.while (an iteration argument advanced by a loop-invariant amount with arith.addi/arith.subi)}}
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %nx = func.call @next(%i2) : (i32) -> i32
      scf.yield %nx : i32
    }
    approx.yield
  }
  return
}

// -----

func.func @f(%n: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 2 : i32}>
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    // expected-error @+1 {{loop_perforate: the exit test compares the induction variable with ==/!=, so a larger step could skip the bound; use </<=/>/>=}}
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi ne, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %nx = arith.addi %i2, %one : i32
      scf.yield %nx : i32
    }
    approx.yield
  }
  return
}

// -----

func.func private @g(i32) -> i32
func.func private @approx_g_1(i32) -> i32
func.func @f(%x: i32) -> i32 {
  // expected-error @+1 {{func_substitute: no call to @g inside the knob}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    approx.transform func_substitute <{knob_val = 1 : i32}>
    approx.yield %x : i32
  }
  return %r : i32
}

// -----

func.func private @g(i32) -> i32
func.func @f(%x: i32) -> i32 {
  // expected-error @+1 {{func_substitute variant 'approx_g_1' is not defined}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    approx.transform func_substitute <{knob_val = 1 : i32}>
    %y = func.call @g(%x) : (i32) -> i32
    approx.yield %y : i32
  }
  return %r : i32
}

// -----

func.func @f(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  // expected-error @+1 {{func_substitute needs a knob around a whole function or a 'callee' whose calls to replace}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<func_substitute>]}> -> i32 {
    approx.transform func_substitute <{knob_val = 1 : i32}>
    approx.yield %y : i32
  }
  return %r : i32
}

// -----

func.func @f(%c: i1, %x: i32) -> i32 {
  // expected-error @+1 {{task_skipping value 3 forces branch 2, but the scf.if has only 2 branches}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<task_skipping>]}> -> i32 {
    approx.transform task_skipping <{knob_val = 3 : i32}>
    %v = scf.if %c -> i32 {
      scf.yield %x : i32
    } else {
      scf.yield %x : i32
    }
    approx.yield %v : i32
  }
  return %r : i32
}

// -----

func.func @f(%x: i32) -> i32 {
  // expected-error @+1 {{task_skipping: the knob contains no scf.if or scf.index_switch}}
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<task_skipping>]}> -> i32 {
    approx.transform task_skipping <{knob_val = 1 : i32}>
    approx.yield %x : i32
  }
  return %r : i32
}

// -----

func.func @f(%x: i32) {
  // expected-error @+1 {{has no decision_tree or transform; run emit-management first}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<task_skipping>], params = {static_transform = {transform_type = "task_skipping", knob_val = 1 : i32}}}> {
    approx.yield
  }
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%k: i32, %x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    // expected-error @+1 {{a func_substitute driven by an SSA value needs decision_values: the values it may take decide the variants or branches to generate}}
    approx.transform func_substitute %k
    %y = func.call @g(%x) : (i32) -> i32
    approx.yield %y : i32
  }
  return %r : i32
}

// -----

// Truncation and random skipping need a trip count: an scf.for.
func.func @f(%n: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_truncate_end>]}> {
    approx.transform loop_truncate_end <{knob_val = 2 : i32}>
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{loop_truncate_end needs an scf.for (a loop with a known trip count)}}
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %c1 = arith.constant 1 : i32
      %next = arith.addi %i2, %c1 : i32
      scf.yield %next : i32
    }
    approx.yield
  }
  return
}

// -----

func.func @f(%x: i32) {
  // expected-error @+1 {{loop_random_skip: the knob contains no scf.for or scf.while}}
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_random_skip>]}> {
    approx.transform loop_random_skip <{knob_val = 2 : i32}>
    approx.yield
  }
  return
}

// -----

func.func @f(%lb: i32, %ub: i32) {
  approx.knob <{id = 0 : i32, name = "k", transform_types = [#approx.kind<loop_truncate_start>]}> {
    approx.transform loop_truncate_start <{knob_val = 2 : i32}>
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{loop_truncate_start does not support loops with unsigned bounds}}
    scf.for unsigned %i = %lb to %ub step %c1 : i32 {
    }
    approx.yield
  }
  return
}
