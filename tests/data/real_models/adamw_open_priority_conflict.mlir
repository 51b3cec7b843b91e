// From fuzz_real_models on flax_linen_transformer_2x4 (adamw update chain), reduced: sdy-dsl at 4101114 gave
// %4 = add [{}, {"data"}] where the reference gives [{"data", "model":(1)2}, {}] (open dimensions, a p0
// priority and a sub-axis on two operands of one elementwise chain).
module {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "model":(1)2, ?}, {?}p0]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model", ?}, {"data", ?}]>}, %arg2: tensor<4x8xf32>, %arg3: tensor<4x8xf32>, %arg4: tensor<4x8xf32>, %arg5: tensor<4x8xf32>, %arg6: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", ?}, {}]>}) {
    %0 = stablehlo.multiply %arg3, %arg1 : tensor<4x8xf32>
    %1 = stablehlo.add %arg2, %0 : tensor<4x8xf32>
    %2 = stablehlo.divide %1, %arg4 : tensor<4x8xf32>
    %3 = stablehlo.multiply %arg5, %arg0 : tensor<4x8xf32>
    %4 = stablehlo.add %2, %3 : tensor<4x8xf32>
    %5 = stablehlo.multiply %arg6, %4 : tensor<4x8xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<4x8xf32>
    return %6, %arg4 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
