// Two chained 512x512 f32 matmuls (issue 42's benchmark): a schedule
// (tile sizes of every matmul, upstream's transform.structured.tile_using_for)
// and approximations (precision_reduce on the first, decode_quantize on the
// second), every choice a transform.tune.knob, so that approx-tune searches
// them together. The approximations run first; the tiling then applies to
// the matmuls they leave (f32, f16/bf16 or int8). run.py makes the
// restricted spaces from this file by fixing knobs.
module attributes {transform.with_named_sequence} {
  func.func @chain(%x: tensor<512x512xf32>, %w1: tensor<512x512xf32>,
                   %w2: tensor<512x512xf32>) -> tensor<512x512xf32>
      attributes {llvm.emit_c_interface} {
    %z = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<512x512xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %h = linalg.matmul {tag = "mm1"} ins(%x, %w1 : tensor<512x512xf32>, tensor<512x512xf32>)
                       outs(%f1 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %e2 = tensor.empty() : tensor<512x512xf32>
    %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %y = linalg.matmul {tag = "mm2"} ins(%h, %w2 : tensor<512x512xf32>, tensor<512x512xf32>)
                       outs(%f2 : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %y : tensor<512x512xf32>
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm1 = transform.structured.match attributes{tag = "mm1"} in %root : (!transform.any_op) -> !transform.any_op
    %mm2 = transform.structured.match attributes{tag = "mm2"} in %root : (!transform.any_op) -> !transform.any_op
    // 0 exact, 1 f16 inputs, 2 bf16 inputs (f32 accumulation)
    %p = transform.tune.knob<"mm1_precision"> = 0 from options = [0, 1, 2] -> !transform.param<i64>
    // 0 exact, 1 int8 per channel, 2 int8 per tensor, 3 int8 weights per channel
    %q = transform.tune.knob<"mm2_quantize"> = 0 from options = [0, 1, 2, 3] -> !transform.param<i64>
    transform.approx.precision_reduce %mm1 by %p : !transform.any_op, !transform.param<i64>
    transform.approx.decode_quantize %mm2 by %q : !transform.any_op, !transform.param<i64>
    // 512 = one tile: the default schedule (no tiling)
    %tm = transform.tune.knob<"tile_m"> = 512 from options = [64, 128, 256, 512] -> !transform.param<i64>
    %tn = transform.tune.knob<"tile_n"> = 512 from options = [64, 128, 256, 512] -> !transform.param<i64>
    %tk = transform.tune.knob<"tile_k"> = 512 from options = [64, 128, 256, 512] -> !transform.param<i64>
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.split_handle %mms : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ta, %la:3 = transform.structured.tile_using_for %a tile_sizes [%tm, %tn, %tk]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %tb, %lb:3 = transform.structured.tile_using_for %b tile_sizes [%tm, %tn, %tk]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
