module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg3: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg4: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg6: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg7: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg8: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<256x1024xf32> {jax.result_info = "result[0][0]"}, tensor<1024x256xf32> {jax.result_info = "result[0][1]"}, tensor<256x1024xf32> {jax.result_info = "result[1][0]"}, tensor<1024x256xf32> {jax.result_info = "result[1][1]"}, tensor<256x1024xf32> {jax.result_info = "result[2][0]"}, tensor<1024x256xf32> {jax.result_info = "result[2][1]"}, tensor<256x1024xf32> {jax.result_info = "result[3][0]"}, tensor<1024x256xf32> {jax.result_info = "result[3][1]"}) {
    %0 = sdy.constant dense<1.000000e+00> : tensor<f32>
    %1 = sdy.constant dense<2.000000e+00> : tensor<f32>
    %2 = sdy.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.dot_general %arg8, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %4 = call @relu(%3) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %5 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %7 = stablehlo.dot_general %4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %8 = stablehlo.add %arg8, %7 : tensor<64x256xf32>
    %9 = stablehlo.dot_general %8, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %10 = call @relu(%9) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %11 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %12 = stablehlo.compare GT, %9, %11, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %13 = stablehlo.dot_general %10, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %14 = stablehlo.add %8, %13 : tensor<64x256xf32>
    %15 = stablehlo.dot_general %14, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %16 = call @relu(%15) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %17 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %18 = stablehlo.compare GT, %15, %17, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %19 = stablehlo.dot_general %16, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %20 = stablehlo.add %14, %19 : tensor<64x256xf32>
    %21 = stablehlo.dot_general %20, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %22 = call @relu(%21) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %23 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %24 = stablehlo.compare GT, %21, %23, FLOAT : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xi1>
    %25 = stablehlo.dot_general %22, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %26 = stablehlo.add %20, %25 : tensor<64x256xf32>
    %27 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %28 = stablehlo.multiply %27, %26 : tensor<64x256xf32>
    %29 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %30 = stablehlo.multiply %29, %28 : tensor<64x256xf32>
    %31 = stablehlo.dot_general %30, %22, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %32 = stablehlo.transpose %31, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %33 = stablehlo.dot_general %30, %arg7, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %34 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %35 = stablehlo.select %24, %33, %34 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %36 = stablehlo.dot_general %35, %20, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %38 = stablehlo.dot_general %35, %arg6, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %39 = stablehlo.add %30, %38 : tensor<64x256xf32>
    %40 = stablehlo.dot_general %39, %16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %41 = stablehlo.transpose %40, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %42 = stablehlo.dot_general %39, %arg5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %43 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %44 = stablehlo.select %18, %42, %43 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %45 = stablehlo.dot_general %44, %14, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %46 = stablehlo.transpose %45, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %47 = stablehlo.dot_general %44, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %48 = stablehlo.add %39, %47 : tensor<64x256xf32>
    %49 = stablehlo.dot_general %48, %10, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %50 = stablehlo.transpose %49, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %51 = stablehlo.dot_general %48, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %52 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %53 = stablehlo.select %12, %51, %52 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %54 = stablehlo.dot_general %53, %8, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %55 = stablehlo.transpose %54, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %56 = stablehlo.dot_general %53, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<256x1024xf32>) -> tensor<64x256xf32>
    %57 = stablehlo.add %48, %56 : tensor<64x256xf32>
    %58 = stablehlo.dot_general %57, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %59 = stablehlo.transpose %58, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %60 = stablehlo.dot_general %57, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
    %61 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %62 = stablehlo.select %6, %60, %61 : tensor<64x1024xi1>, tensor<64x1024xf32>
    %63 = stablehlo.dot_general %62, %arg8, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
    %64 = stablehlo.transpose %63, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    return %64, %59, %55, %50, %46, %41, %37, %32 : tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>
  }
  func.func private @relu(%arg0: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
    %0 = sdy.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %2 = stablehlo.maximum %arg0, %1 : tensor<64x1024xf32>
    return %2 : tensor<64x1024xf32>
  }
}
