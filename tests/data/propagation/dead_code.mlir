sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %i: tensor<i32>, %p: tensor<i1>, %t: !stablehlo.token) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @foo(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.constant dense<1.0> : tensor<8x8xf32>
  %3 = stablehlo.iota dim = 0 : tensor<8x8xf32>
  %4 = "stablehlo.all_reduce"(%arg0) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %5:2 = stablehlo.while(%it = %i, %v = %arg0) : tensor<i32>, tensor<8x8xf32>
    cond { %c = stablehlo.compare LT, %it, %it : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1> }
    do { stablehlo.return %it, %v : tensor<i32>, tensor<8x8xf32> }
  %6 = "stablehlo.if"(%p) ({ stablehlo.return %arg0 : tensor<8x8xf32> }, { stablehlo.return %arg0 : tensor<8x8xf32> }) : (tensor<i1>) -> tensor<8x8xf32>
  %7:2 = stablehlo.rng_bit_generator %i, algorithm = DEFAULT : (tensor<i32>) -> (tensor<i32>, tensor<8x8xi32>)
  %8 = stablehlo.after_all %t : !stablehlo.token
  %9 = stablehlo.partition_id : tensor<ui32>
  %10 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a0: tensor<4x8xf32>) {
      sdy.return %a0 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %11 = sdy.named_computation<"n">(%arg0) (%a1: tensor<8x8xf32>) {
      sdy.return %a1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>

  %cz = stablehlo.constant dense<0.0> : tensor<f32>
  %13 = stablehlo.reduce(%arg0 init: %cz) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %14 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x8xf32>) -> tensor<8x16xf32>
  %shp = stablehlo.constant dense<[8]> : tensor<1xi64>
  %15 = stablehlo.rng %i, %i, %shp, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<8xi32>


  %18 = stablehlo.replica_id : tensor<ui32>
  %19 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %20 = sdy.constant dense<1.0> : tensor<8x8xf32>
  %21 = stablehlo.add %20, %20 : tensor<8x8xf32>
  return %arg0 : tensor<8x8xf32>
}
func.func private @dec(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
