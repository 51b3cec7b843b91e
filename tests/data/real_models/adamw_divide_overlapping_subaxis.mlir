// From fuzz_real_models on flax_linen_transformer_2x4 (adamw update chain), reduced: sdy-dsl at 4101114 gave
// %4 = divide [{}, {"data"}, {"model":(1)2}] where the reference gives [{"model"}, {"data"}, {}] (operands
// sharded on "model" and on its sub-axis "model":(1)2 in different dimensions; a replicated axis).
module {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<32x4x8xf32>, %arg1: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model":(1)2}], replicated={"data"}>}, %arg2: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data", ?}, {}]>}, %arg3: tensor<32x4x8xf32>, %arg4: tensor<32x4x8xf32>, %arg5: tensor<32x4x8xf32>, %arg6: tensor<32x4x8xf32>, %arg7: tensor<32x4x8xf32>) -> (tensor<32x4x8xf32>) {
    %0 = stablehlo.multiply %arg6, %arg1 : tensor<32x4x8xf32>
    %1 = stablehlo.add %arg3, %0 : tensor<32x4x8xf32>
    %2 = stablehlo.multiply %arg4, %arg2 : tensor<32x4x8xf32>
    %3 = stablehlo.add %arg5, %2 : tensor<32x4x8xf32>
    %4 = stablehlo.divide %1, %3 : tensor<32x4x8xf32>
    %5 = stablehlo.multiply %arg7, %4 : tensor<32x4x8xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<32x4x8xf32>
    return %6 : tensor<32x4x8xf32>
  }
}
