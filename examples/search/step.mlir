module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg3: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg4: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<32x64xf32> {jax.result_info = "result[0][0]"}, tensor<64x32xf32> {jax.result_info = "result[0][1]"}, tensor<32x64xf32> {jax.result_info = "result[1][0]"}, tensor<64x32xf32> {jax.result_info = "result[1][1]"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.tanh %0 : tensor<16x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<16x64xf32>
    %4 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %5 = stablehlo.add %arg4, %4 : tensor<16x32xf32>
    %6 = stablehlo.dot_general %5, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %7 = stablehlo.tanh %6 : tensor<16x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %9 = stablehlo.subtract %8, %7 : tensor<16x64xf32>
    %10 = stablehlo.dot_general %7, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %11 = stablehlo.add %5, %10 : tensor<16x32xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<16x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<16x32xf32>
    %16 = stablehlo.dot_general %15, %7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %17 = stablehlo.transpose %16, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %18 = stablehlo.dot_general %15, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %19 = stablehlo.multiply %18, %9 : tensor<16x64xf32>
    %20 = stablehlo.multiply %19, %7 : tensor<16x64xf32>
    %21 = stablehlo.add %19, %20 : tensor<16x64xf32>
    %22 = stablehlo.dot_general %21, %5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %24 = stablehlo.dot_general %21, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %25 = stablehlo.add %15, %24 : tensor<16x32xf32>
    %26 = stablehlo.dot_general %25, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %27 = stablehlo.transpose %26, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %28 = stablehlo.dot_general %25, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %29 = stablehlo.multiply %28, %3 : tensor<16x64xf32>
    %30 = stablehlo.multiply %29, %1 : tensor<16x64xf32>
    %31 = stablehlo.add %29, %30 : tensor<16x64xf32>
    %32 = stablehlo.dot_general %31, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %33 = stablehlo.transpose %32, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %cst_3 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %35 = stablehlo.multiply %34, %33 : tensor<32x64xf32>
    %36 = stablehlo.subtract %arg0, %35 : tensor<32x64xf32>
    %cst_4 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %38 = stablehlo.multiply %37, %27 : tensor<64x32xf32>
    %39 = stablehlo.subtract %arg1, %38 : tensor<64x32xf32>
    %cst_5 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %41 = stablehlo.multiply %40, %23 : tensor<32x64xf32>
    %42 = stablehlo.subtract %arg2, %41 : tensor<32x64xf32>
    %cst_6 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %44 = stablehlo.multiply %43, %17 : tensor<64x32xf32>
    %45 = stablehlo.subtract %arg3, %44 : tensor<64x32xf32>
    return %36, %39, %42, %45 : tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>
  }
}
