// Lowered from JAX 0.10.2 (jax.jit(...).lower(...).as_text()); covers what real programs emit.
module @jit_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>, %arg2: tensor<2x3x16xf32>, %arg3: tensor<5x3x3xf32>) -> (tensor<2x8x8x8xf32> {jax.result_info = "result[0]"}, tensor<2x3x3x8xf32> {jax.result_info = "result[1]"}, tensor<2x5x16xf32> {jax.result_info = "result[2]"}, tensor<2x8x8x8xf32> {jax.result_info = "result[3]"}, tensor<2x8x8x4xf32> {jax.result_info = "result[4][0]"}, tensor<3x3x4x8xf32> {jax.result_info = "result[4][1]"}, tensor<2x8x8x4xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
    %1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x3x3x8xf32>
    %2 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x3x16xf32>, tensor<5x3x3xf32>) -> tensor<2x5x16xf32>
    %3 = stablehlo.slice %arg1 [0:3, 0:3, 0:1, 0:8] : (tensor<3x3x4x8xf32>) -> tensor<3x3x1x8xf32>
    %4 = stablehlo.convolution(%arg0, %3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x1x8xf32>) -> tensor<2x8x8x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %6 = stablehlo.convolution(%arg0, %5) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<2x8x8x8xf32>) -> tensor<3x3x4x8xf32>
    %7 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<3x3x4x8xf32>
    %8 = stablehlo.convolution(%5, %7) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x4x4xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %10 = stablehlo.pad %arg0, %cst_1, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x8x8x4xf32>, tensor<f32>) -> tensor<2x8x8x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = "stablehlo.select_and_scatter"(%10, %9, %cst_2) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %13 = stablehlo.compare GE, %arg4, %arg5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %13 : tensor<i1>
    }, {
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %13 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<2x8x8x4xf32>, tensor<2x4x4x4xf32>, tensor<f32>) -> tensor<2x8x8x4xf32>
    %12 = stablehlo.slice %11 [0:2, 0:8, 0:8, 0:4] : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    return %0, %1, %2, %4, %8, %6, %12 : tensor<2x8x8x8xf32>, tensor<2x3x3x8xf32>, tensor<2x5x16xf32>, tensor<2x8x8x8xf32>, tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>, tensor<2x8x8x4xf32>
  }
}
