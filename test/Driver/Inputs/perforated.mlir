func.func @sum(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i32 {
    %v = arith.index_cast %i : index to i32
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  return %r : i32
}
approx.util.annotation.static_transform <{func_name = "sum",
    transform_type = "loop_perforate", knob_val = 2 : i32}>
