// A func argument with one call nested in a case and one at the top level,
// each with a different sharding: the reference lists the calls in
// symbol-use order (the top-level one first), which decides the conflict.
sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %c = sdy.constant dense<0> : tensor<i32>
  %0 = "stablehlo.case"(%c) ({
    %1 = func.call @f(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }) : (tensor<i32>) -> tensor<8x8xf32>
  %3 = func.call @f(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}

func.func private @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
