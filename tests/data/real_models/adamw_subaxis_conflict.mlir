// From fuzz_real_models on flax_nnx_convnet_4x2 (adamw update chain), reduced: sdy-dsl at 4101114 gave
// @main arg 0 [{"data":(1)2}, {}] where the reference gives [{}, {"data":(1)2, "model"}] (conflict between a
// sub-axis + priority argument and a result that uses the sub-axis with another axis on one dimension).
module {
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data":(1)2, ?}, {"model"}p2]>}, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<8x8xf32>, %arg5: tensor<8x8xf32>, %arg6: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data":(1)2, "model", ?}]>}) {
    %0 = stablehlo.multiply %arg3, %arg1 : tensor<8x8xf32>
    %1 = stablehlo.add %arg2, %0 : tensor<8x8xf32>
    %2 = stablehlo.divide %1, %arg4 : tensor<8x8xf32>
    %3 = stablehlo.multiply %arg5, %arg0 : tensor<8x8xf32>
    %4 = stablehlo.add %2, %3 : tensor<8x8xf32>
    %5 = stablehlo.multiply %arg6, %4 : tensor<8x8xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<8x8xf32>
    return %6, %arg4 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}
