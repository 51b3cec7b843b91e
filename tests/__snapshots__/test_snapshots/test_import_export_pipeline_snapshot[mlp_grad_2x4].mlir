module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg3: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg4: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg6: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg7: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg8: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<256x1024xf32> {jax.result_info = "result[0][0]"}, tensor<1024x256xf32> {jax.result_info = "result[0][1]"}, tensor<256x1024xf32> {jax.result_info = "result[1][0]"}, tensor<1024x256xf32> {jax.result_info = "result[1][1]"}, tensor<256x1024xf32> {jax.result_info = "result[2][0]"}, tensor<1024x256xf32> {jax.result_info = "result[2][1]"}, tensor<256x1024xf32> {jax.result_info = "result[3][0]"}, tensor<1024x256xf32> {jax.result_info = "result[3][1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg8, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %1 = call @relu(%0) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %4 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %5 = stablehlo.add %arg8, %4 : tensor<64x256xf32>
    %6 = stablehlo.dot_general %5, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %7 = call @relu(%6) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %9 = stablehlo.compare GT, %6, %8, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %10 = stablehlo.dot_general %7, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %11 = stablehlo.add %5, %10 : tensor<64x256xf32>
    %12 = stablehlo.dot_general %11, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %13 = call @relu(%12) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %15 = stablehlo.compare GT, %12, %14, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %16 = stablehlo.dot_general %13, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %17 = stablehlo.add %11, %16 : tensor<64x256xf32>
    %18 = stablehlo.dot_general %17, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %19 = call @relu(%18) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %21 = stablehlo.compare GT, %18, %20, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %22 = stablehlo.dot_general %19, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %23 = stablehlo.add %17, %22 : tensor<64x256xf32>
    %24 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<64x256xf32>
    %26 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %27 = stablehlo.multiply %26, %25 : tensor<64x256xf32>
    %28 = stablehlo.dot_general %27, %19, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %30 = stablehlo.dot_general %27, %arg7, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %31 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %32 = stablehlo.select %21, %30, %31 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %33 = stablehlo.dot_general %32, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %35 = stablehlo.dot_general %32, %arg6, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %36 = stablehlo.add %27, %35 : tensor<64x256xf32>
    %37 = stablehlo.dot_general %36, %13, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %39 = stablehlo.dot_general %36, %arg5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %40 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %41 = stablehlo.select %15, %39, %40 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %42 = stablehlo.dot_general %41, %11, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %43 = stablehlo.transpose %42, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %44 = stablehlo.dot_general %41, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %45 = stablehlo.add %36, %44 : tensor<64x256xf32>
    %46 = stablehlo.dot_general %45, %7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %47 = stablehlo.transpose %46, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %48 = stablehlo.dot_general %45, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %49 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %50 = stablehlo.select %9, %48, %49 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %51 = stablehlo.dot_general %50, %5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %52 = stablehlo.transpose %51, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %53 = stablehlo.dot_general %50, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %54 = stablehlo.add %45, %53 : tensor<64x256xf32>
    %55 = stablehlo.dot_general %54, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %56 = stablehlo.transpose %55, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %57 = stablehlo.dot_general %54, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %58 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %59 = stablehlo.select %3, %57, %58 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %60 = stablehlo.dot_general %59, %arg8, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    return %61, %56, %52, %47, %43, %38, %34, %29 : tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>
  }
  func.func private @relu(%arg0: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<64x1024xf32>
    return %1 : tensor<64x1024xf32>
  }
}
