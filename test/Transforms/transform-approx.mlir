// RUN: approx-opt %s -split-input-file --transform-approx | FileCheck %s

// Decision tree: count the thresholds <= state, select the knob value with an
// scf.index_switch, scale the loop step by max(k, 1). The loop is not copied.
func.func private @s(i32) -> i32
func.func @perforate_for(%n: index, %x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "p", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    %st = func.call @s(%x) : (i32) -> i32
    approx.decision_tree loop_perforate %st <{state_function = "s", state_indices = array<i64: 1>, thresholds = array<i32: 5, 10>, decisions = array<i32: 0, 2, 4>}> : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
      %b = arith.addi %a, %x : i32
      scf.yield %b : i32
    }
    approx.yield %l : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @perforate_for
// CHECK:         approx.knob <{id = 0 : i32, lowered, name = "p"
// CHECK:           %[[S:.*]] = func.call @s
// CHECK-DAG:       %[[T0:.*]] = arith.constant 5 : i32
// CHECK-DAG:       %[[GE0:.*]] = arith.cmpi sge, %[[S]], %[[T0]] : i32
// CHECK:           %[[T1:.*]] = arith.constant 10 : i32
// CHECK:           %[[GE1:.*]] = arith.cmpi sge, %[[S]], %[[T1]] : i32
// CHECK:           %[[IDX:.*]] = arith.index_cast
// CHECK:           %[[K:.*]] = scf.index_switch %[[IDX]] -> i32
// CHECK:           case 0 {
// CHECK:             arith.constant 0 : i32
// CHECK:           case 1 {
// CHECK:             arith.constant 2 : i32
// CHECK:           default {
// CHECK:             arith.constant 4 : i32
// The step times k is computed in i128; if it does not fit the index type,
// the loop keeps its step and runs its first iteration only (ub = lb + 1).
// CHECK:           %[[LB:.*]] = arith.constant 0 : index
// CHECK:           %[[STEP:.*]] = arith.constant 1 : index
// CHECK:           %[[F:.*]] = arith.maxsi %[[K]], %{{.*}} : i32
// CHECK:           %[[SW:.*]] = arith.extsi %{{.*}} : i64 to i128
// CHECK:           %[[FW:.*]] = arith.extsi %[[F]] : i32 to i128
// CHECK:           %[[EXACT:.*]] = arith.muli %[[SW]], %[[FW]] : i128
// CHECK:           %[[HI:.*]] = arith.minsi %[[EXACT]], %{{.*}} : i128
// CHECK:           %[[CL:.*]] = arith.maxsi %[[HI]], %{{.*}} : i128
// CHECK:           %[[OVF:.*]] = arith.cmpi ne, %[[EXACT]], %[[CL]] : i128
// CHECK:           %[[NSI:.*]] = arith.trunci %[[CL]] : i128 to i64
// CHECK:           %[[NS:.*]] = arith.index_cast %[[NSI]] : i64 to index
// CHECK:           %[[NEXT:.*]] = arith.addi %[[LB]], %{{.*}} : index
// CHECK:           %[[FIRST:.*]] = arith.minsi %[[UB:.*]], %[[NEXT]] : index
// CHECK:           %[[STEP2:.*]] = arith.select %[[OVF]], %[[STEP]], %[[NS]] : index
// CHECK:           %[[UB2:.*]] = arith.select %[[OVF]], %[[FIRST]], %[[UB]] : index
// CHECK:           scf.for %{{.*}} = %[[LB]] to %[[UB2]] step %[[STEP2]]
// CHECK-NOT:       scf.for
// CHECK:           approx.yield

// -----

// scf.while: the induction increment is scaled; a static value folds in.
func.func @perforate_while(%n: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "w", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    approx.transform loop_perforate <{knob_val = 3 : i32}>
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %res:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i, %acc : i32, i32
    } do {
    ^bb0(%i2: i32, %acc2: i32):
      %a = arith.addi %acc2, %i2 : i32
      %next = arith.addi %i2, %one : i32
      scf.yield %next, %a : i32, i32
    }
    approx.yield %res#1 : i32
  }
  return %r : i32
}
// The increment is computed in i128 and saturated at the bounds of i32, so
// the bound test ends the loop instead of the induction variable wrapping.
// CHECK-LABEL: func.func @perforate_while
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[F:.*]] = arith.constant 3 : i32
// CHECK:         scf.while
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      arith.addi %[[ACC]], %[[I]]
// CHECK-NEXT:      %[[AW:.*]] = arith.extsi %[[ONE]] : i32 to i128
// CHECK-NEXT:      %[[FW:.*]] = arith.extsi %[[F]] : i32 to i128
// CHECK-NEXT:      %[[INC:.*]] = arith.muli %[[AW]], %[[FW]] : i128
// CHECK-NEXT:      %[[IW:.*]] = arith.extsi %[[I]] : i32 to i128
// CHECK-NEXT:      %[[NW:.*]] = arith.addi %[[IW]], %[[INC]] : i128
// CHECK-DAG:       %[[MIN:.*]] = arith.constant -2147483648 : i128
// CHECK-DAG:       %[[MAX:.*]] = arith.constant 2147483647 : i128
// CHECK:           %[[A:.*]] = arith.minsi %[[NW]], %[[MAX]] : i128
// CHECK-NEXT:      %[[B:.*]] = arith.maxsi %[[A]], %[[MIN]] : i128
// CHECK-NEXT:      %[[NEXT:.*]] = arith.trunci %[[B]] : i128 to i32
// CHECK-NEXT:      scf.yield %[[NEXT]]

// -----

// Whole-function substitution with a decision tree: the body is the default
// (exact) case, each variant one call; the body is not duplicated.
func.func private @s(i32) -> i32
func.func private @approx_f_1(f32, i32) -> f32
func.func private @approx_f_3(f32, i32) -> f32
func.func @f(%x: f32, %st: i32) -> f32 {
  %r = approx.knob <{id = 0 : i32, name = "f", transform_types = [#approx.kind<func_substitute>]}> -> f32 {
    %v = func.call @s(%st) : (i32) -> i32
    approx.decision_tree func_substitute %v <{state_function = "s", state_indices = array<i64: -1>, thresholds = array<i32: 5>, decisions = array<i32: 0, 1>, decision_values = array<i32: 0, 1, 3>}> : i32
    %y = arith.mulf %x, %x : f32
    approx.yield %y : f32
  }
  return %r : f32
}
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.*]]: f32, %[[ST:.*]]: i32)
// CHECK:         %[[K:.*]] = scf.index_switch %{{.*}} -> i32
// CHECK:         %[[KI:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK:         %[[R:.*]] = scf.index_switch %[[KI]] -> f32
// CHECK-NEXT:    case 1 {
// CHECK-NEXT:      %[[A:.*]] = func.call @approx_f_1(%[[X]], %[[ST]])
// CHECK-NEXT:      scf.yield %[[A]]
// CHECK:         case 3 {
// CHECK-NEXT:      func.call @approx_f_3(%[[X]], %[[ST]])
// CHECK:         default {
// CHECK-NEXT:      %[[E:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      scf.yield %[[E]] : f32
// CHECK:         approx.yield %[[R]] : f32

// -----

// Region substitution with a static value: calls to the callee are renamed.
func.func private @g(i32) -> i32
func.func private @approx_g_2(i32) -> i32
func.func @h(%n: index, %x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "h", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    approx.transform func_substitute <{knob_val = 2 : i32}>
    %a = func.call @g(%x) : (i32) -> i32
    %b = func.call @g(%a) : (i32) -> i32
    approx.yield %b : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @h(
// CHECK:         %[[A:.*]] = func.call @approx_g_2(%{{.*}})
// CHECK-NEXT:    func.call @approx_g_2(%[[A]])
// CHECK-NOT:     func.call @g(

// -----

// Region substitution driven by an SSA value: each call dispatches.
func.func private @g(i32) -> i32
func.func private @approx_g_1(i32) -> i32
func.func @h2(%k: i32, %x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "h2", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    approx.transform func_substitute %k <{decision_values = array<i32: 0, 1>}>
    %a = func.call @g(%x) : (i32) -> i32
    approx.yield %a : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @h2(
// CHECK:         %[[R:.*]] = scf.index_switch %{{.*}} -> i32
// CHECK-NEXT:    case 1 {
// CHECK-NEXT:      func.call @approx_g_1
// CHECK:         default {
// CHECK-NEXT:      %[[E:.*]] = func.call @g(
// CHECK-NEXT:      scf.yield %[[E]]
// CHECK:         approx.yield %[[R]]

// -----

// Task skipping on scf.if: k = 0 keeps the condition, 1 forces then, 2 else.
func.func @t_if(%k: i32, %c: i1, %x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "t", transform_types = [#approx.kind<task_skipping>]}> -> i32 {
    approx.transform task_skipping %k <{decision_values = array<i32: 0, 1, 2>}>
    %v = scf.if %c -> i32 {
      scf.yield %x : i32
    } else {
      %y = arith.addi %x, %x : i32
      scf.yield %y : i32
    }
    approx.yield %v : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @t_if(
// CHECK-SAME:    %[[K:.*]]: i32, %[[C:.*]]: i1,
// CHECK:         %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.cmpi eq, %[[K]], %[[C0]] : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[O:.*]] = arith.cmpi eq, %[[K]], %[[C1]] : i32
// CHECK:         %[[NC:.*]] = arith.select %[[Z]], %[[C]], %[[O]] : i1
// CHECK:         scf.if %[[NC]] -> (i32)

// -----

// Task skipping on scf.index_switch with a static value: branch k-1 = the
// second case (value 7).
func.func @t_switch(%sel: index) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "t", transform_types = [#approx.kind<task_skipping>]}> -> i32 {
    approx.transform task_skipping <{knob_val = 2 : i32}>
    %v = scf.index_switch %sel -> i32
    case 3 {
      %a = arith.constant 30 : i32
      scf.yield %a : i32
    }
    case 7 {
      %b = arith.constant 70 : i32
      scf.yield %b : i32
    }
    default {
      %c = arith.constant 0 : i32
      scf.yield %c : i32
    }
    approx.yield %v : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @t_switch(
// CHECK:         %[[SEL:.*]] = arith.constant 7 : index
// CHECK:         scf.index_switch %[[SEL]] -> i32

// -----

// Safety contract: checker on (results, args); recover on failure.
func.func private @check(i32, i32) -> i1
func.func private @recover(i32) -> i32
func.func private @g(i32) -> i32
func.func private @approx_g_1(i32) -> i32
func.func @sc(%x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "sc", transform_types = [#approx.kind<func_substitute>], callee = @g}> -> i32 {
    approx.transform func_substitute <{knob_val = 1 : i32}>
    approx.safety_contract <{checker = @check, recover = @recover}>
    %a = func.call @g(%x) : (i32) -> i32
    approx.yield %a : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @sc(
// CHECK-SAME:    %[[X:.*]]: i32)
// CHECK:         %[[A:.*]] = func.call @approx_g_1(%[[X]])
// CHECK-NEXT:    %[[OK:.*]] = func.call @check(%[[A]], %[[X]])
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[OK]] -> (i32) {
// CHECK-NEXT:      scf.yield %[[A]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[E:.*]] = func.call @recover(%[[X]])
// CHECK-NEXT:      scf.yield %[[E]]
// CHECK:         approx.yield %[[R]]

// -----

// Runtime table: thresholds and decisions become approx.runtime_param reads
// (lowered to the runtime's ABI by lower-approx-runtime), the compile-time
// values their defaults; selects pick the decision, so all of a tree's
// reads are unconditional (hoistable out of loops together) and nothing
// branches on the state.
func.func private @s(i32) -> i32
func.func @rt(%n: index, %x: i32) {
  approx.knob <{id = 0 : i32, name = "rt", transform_types = [#approx.kind<loop_perforate>]}> {
    %st = func.call @s(%x) : (i32) -> i32
    approx.decision_tree loop_perforate %st <{state_function = "s", state_indices = array<i64: 1>, thresholds = array<i32: 5>, decisions = array<i32: 0, 2>, runtime_params = ["rt_threshold_0", "rt_decision_0", "rt_decision_1"]}> : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    approx.yield
  }
  return
}
// CHECK-LABEL: func.func @rt(
// CHECK:         %[[ST:.*]] = func.call @s
// CHECK:         %[[D0:.*]] = approx.runtime_param <{default_value = 0 : i32, name = "rt_decision_0"}> : i32
// CHECK-NEXT:    %[[D1:.*]] = approx.runtime_param <{default_value = 2 : i32, name = "rt_decision_1"}> : i32
// CHECK:         %[[T:.*]] = approx.runtime_param <{default_value = 5 : i32, name = "rt_threshold_0"}> : i32
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[ST]], %[[T]]
// CHECK:         %[[IS1:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[D:.*]] = arith.select %[[IS1]], %[[D1]], %[[D0]] : i32
// CHECK-NOT:     scf.index_switch

// -----

// With two thresholds or more, the selects run only when the decisions
// differ: when they agree (the exact configuration among others) the tree
// uses neither its state nor its thresholds.
func.func private @s2(i32) -> i32
func.func @rt2(%n: index, %x: i32) {
  approx.knob <{id = 0 : i32, name = "rt2", transform_types = [#approx.kind<loop_perforate>]}> {
    %st = func.call @s2(%x) : (i32) -> i32
    approx.decision_tree loop_perforate %st <{state_function = "s2", state_indices = array<i64: 1>, thresholds = array<i32: 5, 9>, decisions = array<i32: 0, 2, 3>, runtime_params = ["rt2_threshold_0", "rt2_threshold_1", "rt2_decision_0", "rt2_decision_1", "rt2_decision_2"]}> : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    approx.yield
  }
  return
}
// CHECK-LABEL: func.func @rt2(
// CHECK:         %[[ST:.*]] = func.call @s2
// CHECK:         %[[D0:.*]] = approx.runtime_param <{default_value = 0 : i32, name = "rt2_decision_0"}> : i32
// CHECK-NEXT:    %[[D1:.*]] = approx.runtime_param <{default_value = 2 : i32, name = "rt2_decision_1"}> : i32
// CHECK-NEXT:    %[[D2:.*]] = approx.runtime_param <{default_value = 3 : i32, name = "rt2_decision_2"}> : i32
// CHECK-NEXT:    %[[E1:.*]] = arith.cmpi eq, %[[D1]], %[[D0]] : i32
// CHECK-NEXT:    %[[E2:.*]] = arith.cmpi eq, %[[D2]], %[[D0]] : i32
// CHECK-NEXT:    %[[AGREE:.*]] = arith.andi %[[E1]], %[[E2]] : i1
// CHECK-NEXT:    %[[K:.*]] = scf.if %[[AGREE]] -> (i32) {
// CHECK-NEXT:      scf.yield %[[D0]] : i32
// CHECK-NEXT:    } else {
// CHECK:           approx.runtime_param <{default_value = 5 : i32, name = "rt2_threshold_0"}> : i32
// CHECK:           approx.runtime_param <{default_value = 9 : i32, name = "rt2_threshold_1"}> : i32
// CHECK:           arith.select %{{.*}}, %[[D1]], %[[D0]] : i32
// CHECK:           %[[D:.*]] = arith.select %{{.*}}, %[[D2]], %{{.*}} : i32
// CHECK-NEXT:      scf.yield %[[D]] : i32
// CHECK-NEXT:    }
// CHECK-NOT:     scf.index_switch

// -----

// A static knob value in a runtime-table build is one runtime_param. A
// perforation whose factor is known only at run time is versioned: the
// loop as written when the factor is 1 (exact), the perforated one else.
func.func @rt_static(%n: index) {
  approx.knob <{id = 0 : i32, name = "rs", transform_types = [#approx.kind<loop_perforate>]}> {
    approx.transform loop_perforate <{knob_val = 3 : i32, runtime_param = "rs_knob_val"}>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    approx.yield
  }
  return
}
// CHECK-LABEL: func.func @rt_static(
// CHECK:         %[[K:.*]] = approx.runtime_param <{default_value = 3 : i32, name = "rs_knob_val"}> : i32
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[F:.*]] = arith.maxsi %[[K]], %[[ONE]]
// CHECK:         %[[EXACT:.*]] = arith.cmpi eq, %[[F]], %{{.*}} : i32
// CHECK-NEXT:    scf.if %[[EXACT]] {
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0:.*]] to %[[N:.*]] step %[[C1:[^ ]*]] {
// CHECK:         } else {
// CHECK:           %[[S:.*]] = arith.extsi %[[F]] : i32 to i128
// CHECK:           arith.muli %{{.*}}, %[[S]] : i128
// CHECK:           %[[STEP:.*]] = arith.select
// CHECK:           scf.for %{{.*}} step %[[STEP]]

// -----

// loop_truncate_end keeps the first ceil(n/k) iterations: the upper bound
// becomes min(lb + ceil(n/k) * step, ub), n = ceil(max(ub - lb, 0) / step),
// computed in i128 and narrowed back (it lies within [lb, ub]).
func.func @trunc_end(%lb: index, %ub: index) {
  approx.knob <{id = 0 : i32, name = "te", transform_types = [#approx.kind<loop_truncate_end>]}> {
    approx.transform loop_truncate_end <{knob_val = 4 : i32}>
    %c3 = arith.constant 3 : index
    scf.for %i = %lb to %ub step %c3 {
    }
    approx.yield
  }
  return
}
// CHECK-LABEL: func.func @trunc_end(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK:         %[[STEP:.*]] = arith.constant 3 : index
// The bound arithmetic is done in i128: it cannot wrap.
// CHECK:         %[[LBW:.*]] = arith.extsi %{{.*}} : i64 to i128
// CHECK:         %[[UBW:.*]] = arith.extsi %{{.*}} : i64 to i128
// CHECK:         %[[STEPW:.*]] = arith.extsi %{{.*}} : i64 to i128
// CHECK:         %[[SPAN:.*]] = arith.subi %[[UBW]], %[[LBW]] : i128
// CHECK:         %[[POS:.*]] = arith.maxsi %[[SPAN]]
// CHECK:         %[[N:.*]] = arith.ceildivsi %[[POS]], %[[STEPW]]
// CHECK:         %[[K:.*]] = arith.constant 4 : i32
// CHECK:         %[[KW:.*]] = arith.extsi %[[K]] : i32 to i128
// CHECK:         %[[KEEP:.*]] = arith.ceildivsi %[[N]], %[[KW]]
// CHECK:         %[[LEN:.*]] = arith.muli %[[KEEP]], %[[STEPW]]
// CHECK:         %[[END:.*]] = arith.addi %[[LBW]], %[[LEN]]
// CHECK:         %[[MIN:.*]] = arith.minsi %[[END]], %[[UBW]]
// CHECK:         %[[NARROW:.*]] = arith.trunci %[[MIN]] : i128 to i64
// CHECK:         %[[NEWUB:.*]] = arith.index_cast %[[NARROW]] : i64 to index
// CHECK:         scf.for %{{.*}} = %[[LB]] to %[[NEWUB]] step %[[STEP]]

// -----

// loop_truncate_start keeps the last ceil(n/k): the lower bound moves past
// the n - ceil(n/k) skipped iterations.
func.func @trunc_start(%lb: index, %ub: index) {
  approx.knob <{id = 0 : i32, name = "ts", transform_types = [#approx.kind<loop_truncate_start>]}> {
    approx.transform loop_truncate_start <{knob_val = 2 : i32}>
    %c1 = arith.constant 1 : index
    scf.for %i = %lb to %ub step %c1 {
    }
    approx.yield
  }
  return
}
// CHECK-LABEL: func.func @trunc_start(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK:         %[[N:.*]] = arith.ceildivsi %{{.*}} : i128
// CHECK:         %[[KEEP:.*]] = arith.ceildivsi %[[N]]
// CHECK:         %[[SKIP:.*]] = arith.subi %[[N]], %[[KEEP]] : i128
// CHECK:         %[[OFF:.*]] = arith.muli %[[SKIP]]
// CHECK:         %[[START:.*]] = arith.addi %{{.*}}, %[[OFF]] : i128
// CHECK:         %[[NARROW:.*]] = arith.trunci %[[START]] : i128 to i64
// CHECK:         %[[NEWLB:.*]] = arith.index_cast %[[NARROW]] : i64 to index
// CHECK:         scf.for %{{.*}} = %[[NEWLB]] to %[[UB]]

// -----

// loop_random_skip guards the body with a hash of the iteration (seeded by
// the knob id); a skipped iteration passes its iteration arguments through.
func.func @random(%n: index, %x: i32) -> i32 {
  %r = approx.knob <{id = 7 : i32, name = "rs", transform_types = [#approx.kind<loop_random_skip>]}> -> i32 {
    approx.transform loop_random_skip %x <{}>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
      %a = arith.addi %acc, %x : i32
      scf.yield %a : i32
    }
    approx.yield %s : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @random(
// CHECK-SAME:      %{{.*}}: index, %[[X:.*]]: i32)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[DIV:.*]] = arith.maxsi %[[X]], %[[ONE]]
// CHECK:         %[[DIV64:.*]] = arith.extsi %[[DIV]] : i32 to i64
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK:           %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:           arith.constant 8 : i64
// CHECK:           %[[REM:.*]] = arith.remui %{{.*}}, %[[DIV64]] : i64
// CHECK:           %[[KEEP_IT:.*]] = arith.cmpi eq, %[[REM]]
// CHECK:           %[[V:.*]] = scf.if %[[KEEP_IT]] -> (i32) {
// CHECK-NEXT:        %[[A:.*]] = arith.addi %[[ACC]], %[[X]]
// CHECK-NEXT:        scf.yield %[[A]]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[ACC]]
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[V]]

// -----

// A loop on an integer narrower than 64 bits runs on i64 when perforated:
// neither step * k nor the increment can overflow there (an i8 loop
// perforated by 100 used to get a negative step); the body sees the
// induction variable truncated back.
func.func @perforate_i8(%ub: i8) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "n8", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    approx.transform loop_perforate <{knob_val = 100 : i32}>
    %c0 = arith.constant 0 : i8
    %c1 = arith.constant 1 : i8
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %z) -> i32 : i8 {
      %e = arith.extsi %i : i8 to i32
      %a = arith.addi %acc, %e : i32
      scf.yield %a : i32
    }
    approx.yield %s : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @perforate_i8
// CHECK:         arith.constant 100 : i32
// CHECK:         %[[LB:.*]] = arith.extsi %{{.*}} : i8 to i64
// CHECK:         %[[UB:.*]] = arith.extsi %{{.*}} : i8 to i64
// CHECK:         %[[STEP:.*]] = arith.extsi %{{.*}} : i8 to i64
// CHECK:         %[[FW:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:         %[[NS:.*]] = arith.muli %[[STEP]], %[[FW]] : i64
// CHECK:         scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[NS]] iter_args(%{{.*}}) -> (i32) : i64 {
// CHECK-NEXT:      %[[I8:.*]] = arith.trunci %[[IV]] : i64 to i8
// CHECK-NEXT:      arith.extsi %[[I8]] : i8 to i32

// -----

// Versioning keeps the loop's results: the if yields the exact loop's sum
// or the perforated loop's, and the uses after it take the if's.
func.func private @rs(i32) -> i32
func.func @rt_sum(%n: index, %x: i32) -> i32 {
  %r = approx.knob <{id = 0 : i32, name = "rsum", transform_types = [#approx.kind<loop_perforate>]}> -> i32 {
    %st = func.call @rs(%x) : (i32) -> i32
    approx.decision_tree loop_perforate %st <{state_function = "rs", state_indices = array<i64: 1>, thresholds = array<i32: 5>, decisions = array<i32: 0, 2>, runtime_params = ["rsum_threshold_0", "rsum_decision_0", "rsum_decision_1"]}> : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
      %a = arith.addi %acc, %one : i32
      scf.yield %a : i32
    }
    approx.yield %s : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @rt_sum(
// CHECK:         arith.maxsi
// CHECK:         %[[EXACT:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[V:.*]] = scf.if %[[EXACT]] -> (i32) {
// CHECK-NEXT:      %[[E:.*]] = scf.for %{{.*}} step %[[C1:[^ ]*]] iter_args
// CHECK:           scf.yield %[[E]] : i32
// CHECK-NEXT:    } else {
// CHECK:           %[[P:.*]] = scf.for
// CHECK:           scf.yield %[[P]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    approx.yield %[[V]] : i32
