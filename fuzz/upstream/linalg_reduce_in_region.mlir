func.func @sum(%x: tensor<100xf32>, %i: tensor<f32>) -> tensor<f32> {
  %r = scf.execute_region -> tensor<f32> {
    %s = linalg.reduce ins(%x : tensor<100xf32>) outs(%i : tensor<f32>) dimensions = S0]
      (%in: f32, %acc: f32) {
        %t = arith.addf %in, %acc : f32
        linalg.yield %t : f32
      }
    scf.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
