module @jit_model attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<128x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg3: tensor<512x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg4: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg6: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg7: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg8: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg9: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg10: tensor<128x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg11: tensor<512x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg12: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg13: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg14: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg15: tensor<128x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg16: tensor<512x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg17: tensor<8x32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<128xf32> {jax.result_info = "result[0][0]['g1']"}, tensor<128xf32> {jax.result_info = "result[0][0]['g2']"}, tensor<128x512xf32> {jax.result_info = "result[0][0]['w1']"}, tensor<512x128xf32> {jax.result_info = "result[0][0]['w2']"}, tensor<128x128xf32> {jax.result_info = "result[0][0]['wk']"}, tensor<128x128xf32> {jax.result_info = "result[0][0]['wo']"}, tensor<128x128xf32> {jax.result_info = "result[0][0]['wq']"}, tensor<128x128xf32> {jax.result_info = "result[0][0]['wv']"}, tensor<128xf32> {jax.result_info = "result[0][1]['g1']"}, tensor<128xf32> {jax.result_info = "result[0][1]['g2']"}, tensor<128x512xf32> {jax.result_info = "result[0][1]['w1']"}, tensor<512x128xf32> {jax.result_info = "result[0][1]['w2']"}, tensor<128x128xf32> {jax.result_info = "result[0][1]['wk']"}, tensor<128x128xf32> {jax.result_info = "result[0][1]['wo']"}, tensor<128x128xf32> {jax.result_info = "result[0][1]['wq']"}, tensor<128x128xf32> {jax.result_info = "result[0][1]['wv']"}, tensor<512x128xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.310720e+05> : tensor<f32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_6 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_7 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %cst_8 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_9 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_13 = stablehlo.constant dense<512> : tensor<i32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<8x32xi32>
    %1 = stablehlo.compare LT, %arg17, %0, SIGNED : (tensor<8x32xi32>, tensor<8x32xi32>) -> tensor<8x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<8x32xi32>
    %3 = stablehlo.add %arg17, %2 : tensor<8x32xi32>
    %4 = stablehlo.select %1, %3, %arg17 : tensor<8x32xi1>, tensor<8x32xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x32xi32>) -> tensor<8x32x1xi32>
    %6 = "stablehlo.gather"(%arg16, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128>}> : (tensor<512x128xf32>, tensor<8x32x1xi32>) -> tensor<8x32x128xf32>
    %7 = stablehlo.reduce(%6 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %9 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<8x32x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %12 = stablehlo.subtract %6, %11 : tensor<8x32x128xf32>
    %13 = stablehlo.multiply %12, %12 : tensor<8x32x128xf32>
    %14 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32x128xf32>
    %15 = stablehlo.multiply %14, %12 : tensor<8x32x128xf32>
    %16 = stablehlo.reduce(%13 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %18 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %19 = stablehlo.divide %17, %18 : tensor<8x32x1xf32>
    %20 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %21 = stablehlo.subtract %6, %20 : tensor<8x32x128xf32>
    %22 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %23 = stablehlo.add %19, %22 : tensor<8x32x1xf32>
    %24 = stablehlo.rsqrt %23 : tensor<8x32x1xf32>
    %25 = stablehlo.divide %24, %23 : tensor<8x32x1xf32>
    %26 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %27 = stablehlo.multiply %26, %25 : tensor<8x32x1xf32>
    %28 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %29 = stablehlo.multiply %21, %28 : tensor<8x32x128xf32>
    %30 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %32 = stablehlo.multiply %29, %31 : tensor<8x32x128xf32>
    %33 = stablehlo.dot_general %32, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %34 = stablehlo.reshape %33 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %35 = stablehlo.dot_general %32, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %36 = stablehlo.reshape %35 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %37 = stablehlo.dot_general %32, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %38 = stablehlo.reshape %37 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %39 = stablehlo.dot_general %34, %36, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %40 = stablehlo.sqrt %cst_7 : tensor<f32>
    %41 = stablehlo.convert %40 : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %43 = stablehlo.divide %39, %42 : tensor<8x4x32x32xf32>
    %44 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %45 = call @tril(%44) : (tensor<32x32xi1>) -> tensor<32x32xi1>
    %46:2 = call @_where(%45, %43, %cst_6) : (tensor<32x32xi1>, tensor<8x4x32x32xf32>, tensor<f32>) -> (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>)
    %47 = stablehlo.reduce(%46#0 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %48 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %49 = stablehlo.maximum %48, %47 : tensor<8x4x32xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %52 = stablehlo.subtract %46#0, %51 : tensor<8x4x32x32xf32>
    %53 = stablehlo.exponential %52 : tensor<8x4x32x32xf32>
    %54 = stablehlo.reduce(%53 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %57 = stablehlo.divide %53, %56 : tensor<8x4x32x32xf32>
    %58 = stablehlo.multiply %55, %55 : tensor<8x4x32x1xf32>
    %59 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x4x32x1xf32>
    %60 = stablehlo.divide %59, %58 : tensor<8x4x32x1xf32>
    %61 = stablehlo.dot_general %38, %57, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x32xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %62 = stablehlo.transpose %61, dims = [0, 3, 1, 2] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %63 = stablehlo.reshape %62 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %64 = stablehlo.dot_general %63, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %65 = stablehlo.add %6, %64 : tensor<8x32x128xf32>
    %66 = stablehlo.reduce(%65 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %68 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %69 = stablehlo.divide %67, %68 : tensor<8x32x1xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %71 = stablehlo.subtract %65, %70 : tensor<8x32x128xf32>
    %72 = stablehlo.multiply %71, %71 : tensor<8x32x128xf32>
    %73 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32x128xf32>
    %74 = stablehlo.multiply %73, %71 : tensor<8x32x128xf32>
    %75 = stablehlo.reduce(%72 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %77 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %78 = stablehlo.divide %76, %77 : tensor<8x32x1xf32>
    %79 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %80 = stablehlo.subtract %65, %79 : tensor<8x32x128xf32>
    %81 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %82 = stablehlo.add %78, %81 : tensor<8x32x1xf32>
    %83 = stablehlo.rsqrt %82 : tensor<8x32x1xf32>
    %84 = stablehlo.divide %83, %82 : tensor<8x32x1xf32>
    %85 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %86 = stablehlo.multiply %85, %84 : tensor<8x32x1xf32>
    %87 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %88 = stablehlo.multiply %80, %87 : tensor<8x32x128xf32>
    %89 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %91 = stablehlo.multiply %88, %90 : tensor<8x32x128xf32>
    %92 = stablehlo.dot_general %91, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x512xf32>) -> tensor<8x32x512xf32>
    %93 = stablehlo.multiply %92, %92 : tensor<8x32x512xf32>
    %94 = stablehlo.multiply %93, %92 : tensor<8x32x512xf32>
    %95 = stablehlo.multiply %92, %92 : tensor<8x32x512xf32>
    %96 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %97 = stablehlo.multiply %96, %95 : tensor<8x32x512xf32>
    %98 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %99 = stablehlo.multiply %98, %94 : tensor<8x32x512xf32>
    %100 = stablehlo.add %92, %99 : tensor<8x32x512xf32>
    %101 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<8x32x512xf32>
    %103 = stablehlo.tanh %102 : tensor<8x32x512xf32>
    %104 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %105 = stablehlo.subtract %104, %103 : tensor<8x32x512xf32>
    %106 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %107 = stablehlo.add %106, %103 : tensor<8x32x512xf32>
    %108 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %109 = stablehlo.multiply %108, %107 : tensor<8x32x512xf32>
    %110 = stablehlo.multiply %92, %109 : tensor<8x32x512xf32>
    %111 = sdy.reshard %110 <@mesh, [{"data"}, {}, {"model"}]> : tensor<8x32x512xf32>
    %112 = stablehlo.dot_general %111, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<512x128xf32>) -> tensor<8x32x128xf32>
    %113 = stablehlo.add %65, %112 : tensor<8x32x128xf32>
    %114 = stablehlo.reduce(%113 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %116 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %117 = stablehlo.divide %115, %116 : tensor<8x32x1xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %119 = stablehlo.subtract %113, %118 : tensor<8x32x128xf32>
    %120 = stablehlo.multiply %119, %119 : tensor<8x32x128xf32>
    %121 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32x128xf32>
    %122 = stablehlo.multiply %121, %119 : tensor<8x32x128xf32>
    %123 = stablehlo.reduce(%120 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %125 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %126 = stablehlo.divide %124, %125 : tensor<8x32x1xf32>
    %127 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %128 = stablehlo.subtract %113, %127 : tensor<8x32x128xf32>
    %129 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %130 = stablehlo.add %126, %129 : tensor<8x32x1xf32>
    %131 = stablehlo.rsqrt %130 : tensor<8x32x1xf32>
    %132 = stablehlo.divide %131, %130 : tensor<8x32x1xf32>
    %133 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %134 = stablehlo.multiply %133, %132 : tensor<8x32x1xf32>
    %135 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %136 = stablehlo.multiply %128, %135 : tensor<8x32x128xf32>
    %137 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %139 = stablehlo.multiply %136, %138 : tensor<8x32x128xf32>
    %140 = stablehlo.dot_general %139, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %141 = stablehlo.reshape %140 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %142 = stablehlo.dot_general %139, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %143 = stablehlo.reshape %142 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %144 = stablehlo.dot_general %139, %arg15, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %145 = stablehlo.reshape %144 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %146 = stablehlo.dot_general %141, %143, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %147 = stablehlo.sqrt %cst_7 : tensor<f32>
    %148 = stablehlo.convert %147 : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %150 = stablehlo.divide %146, %149 : tensor<8x4x32x32xf32>
    %151 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %152 = call @tril(%151) : (tensor<32x32xi1>) -> tensor<32x32xi1>
    %153:2 = call @_where_0(%152, %150, %cst_6) : (tensor<32x32xi1>, tensor<8x4x32x32xf32>, tensor<f32>) -> (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>)
    %154 = stablehlo.reduce(%153#0 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %155 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %156 = stablehlo.maximum %155, %154 : tensor<8x4x32xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %159 = stablehlo.subtract %153#0, %158 : tensor<8x4x32x32xf32>
    %160 = stablehlo.exponential %159 : tensor<8x4x32x32xf32>
    %161 = stablehlo.reduce(%160 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %164 = stablehlo.divide %160, %163 : tensor<8x4x32x32xf32>
    %165 = stablehlo.multiply %162, %162 : tensor<8x4x32x1xf32>
    %166 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x4x32x1xf32>
    %167 = stablehlo.divide %166, %165 : tensor<8x4x32x1xf32>
    %168 = stablehlo.dot_general %145, %164, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x32xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %169 = stablehlo.transpose %168, dims = [0, 3, 1, 2] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %170 = stablehlo.reshape %169 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %171 = stablehlo.dot_general %170, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %172 = stablehlo.add %113, %171 : tensor<8x32x128xf32>
    %173 = stablehlo.reduce(%172 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %175 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %176 = stablehlo.divide %174, %175 : tensor<8x32x1xf32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %178 = stablehlo.subtract %172, %177 : tensor<8x32x128xf32>
    %179 = stablehlo.multiply %178, %178 : tensor<8x32x128xf32>
    %180 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32x128xf32>
    %181 = stablehlo.multiply %180, %178 : tensor<8x32x128xf32>
    %182 = stablehlo.reduce(%179 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %184 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %185 = stablehlo.divide %183, %184 : tensor<8x32x1xf32>
    %186 = stablehlo.broadcast_in_dim %176, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %187 = stablehlo.subtract %172, %186 : tensor<8x32x128xf32>
    %188 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %189 = stablehlo.add %185, %188 : tensor<8x32x1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<8x32x1xf32>
    %191 = stablehlo.divide %190, %189 : tensor<8x32x1xf32>
    %192 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %193 = stablehlo.multiply %192, %191 : tensor<8x32x1xf32>
    %194 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %195 = stablehlo.multiply %187, %194 : tensor<8x32x128xf32>
    %196 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %197 = stablehlo.broadcast_in_dim %196, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %198 = stablehlo.multiply %195, %197 : tensor<8x32x128xf32>
    %199 = stablehlo.dot_general %198, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x512xf32>) -> tensor<8x32x512xf32>
    %200 = stablehlo.multiply %199, %199 : tensor<8x32x512xf32>
    %201 = stablehlo.multiply %200, %199 : tensor<8x32x512xf32>
    %202 = stablehlo.multiply %199, %199 : tensor<8x32x512xf32>
    %203 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %204 = stablehlo.multiply %203, %202 : tensor<8x32x512xf32>
    %205 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %206 = stablehlo.multiply %205, %201 : tensor<8x32x512xf32>
    %207 = stablehlo.add %199, %206 : tensor<8x32x512xf32>
    %208 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<8x32x512xf32>
    %210 = stablehlo.tanh %209 : tensor<8x32x512xf32>
    %211 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %212 = stablehlo.subtract %211, %210 : tensor<8x32x512xf32>
    %213 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %214 = stablehlo.add %213, %210 : tensor<8x32x512xf32>
    %215 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %216 = stablehlo.multiply %215, %214 : tensor<8x32x512xf32>
    %217 = stablehlo.multiply %199, %216 : tensor<8x32x512xf32>
    %218 = sdy.reshard %217 <@mesh, [{"data"}, {}, {"model"}]> : tensor<8x32x512xf32>
    %219 = stablehlo.dot_general %218, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<512x128xf32>) -> tensor<8x32x128xf32>
    %220 = stablehlo.add %172, %219 : tensor<8x32x128xf32>
    %221 = stablehlo.transpose %arg16, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %222 = stablehlo.dot_general %220, %221, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x512xf32>) -> tensor<8x32x512xf32>
    %223:2 = call @log_softmax(%222) : (tensor<8x32x512xf32>) -> (tensor<8x32x512xf32>, tensor<8x32x1xf32>)
    %224 = stablehlo.negate %cst_4 : tensor<f32>
    %225 = stablehlo.divide %224, %cst : tensor<f32>
    %226 = stablehlo.broadcast_in_dim %225, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %227 = call @log_softmax_1(%223#0, %223#1, %226) : (tensor<8x32x512xf32>, tensor<8x32x1xf32>, tensor<8x32x512xf32>) -> tensor<8x32x512xf32>
    %228 = stablehlo.dot_general %227, %220, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<8x32x128xf32>) -> tensor<512x128xf32>
    %229 = stablehlo.transpose %228, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %230 = stablehlo.dot_general %227, %221, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<128x512xf32>) -> tensor<8x32x128xf32>
    %231 = stablehlo.transpose %229, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %232 = stablehlo.dot_general %230, %218, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x512xf32>) -> tensor<128x512xf32>
    %233 = stablehlo.transpose %232, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %234 = stablehlo.dot_general %230, %arg11, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<512x128xf32>) -> tensor<8x32x512xf32>
    %235 = sdy.reshard %234 <@mesh, [{"data"}, {}, {"model"}]> : tensor<8x32x512xf32>
    %236 = stablehlo.multiply %199, %235 : tensor<8x32x512xf32>
    %237 = stablehlo.multiply %235, %216 : tensor<8x32x512xf32>
    %238 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %239 = stablehlo.multiply %238, %236 : tensor<8x32x512xf32>
    %240 = stablehlo.multiply %239, %212 : tensor<8x32x512xf32>
    %241 = stablehlo.multiply %240, %210 : tensor<8x32x512xf32>
    %242 = stablehlo.add %240, %241 : tensor<8x32x512xf32>
    %243 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %244 = stablehlo.multiply %243, %242 : tensor<8x32x512xf32>
    %245 = stablehlo.add %237, %244 : tensor<8x32x512xf32>
    %246 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %247 = stablehlo.multiply %246, %244 : tensor<8x32x512xf32>
    %248 = stablehlo.multiply %247, %204 : tensor<8x32x512xf32>
    %249 = stablehlo.add %245, %248 : tensor<8x32x512xf32>
    %250 = stablehlo.dot_general %249, %198, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<8x32x128xf32>) -> tensor<512x128xf32>
    %251 = stablehlo.transpose %250, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %252 = stablehlo.dot_general %249, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<128x512xf32>) -> tensor<8x32x128xf32>
    %253 = stablehlo.multiply %195, %252 : tensor<8x32x128xf32>
    %254 = stablehlo.reduce(%253 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<128xf32>
    %255 = stablehlo.reshape %254 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %256 = stablehlo.broadcast_in_dim %196, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %257 = stablehlo.multiply %252, %256 : tensor<8x32x128xf32>
    %258 = stablehlo.reduce(%255 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %259 = stablehlo.multiply %187, %257 : tensor<8x32x128xf32>
    %260 = stablehlo.reduce(%259 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %261 = stablehlo.reshape %260 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %262 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %263 = stablehlo.multiply %257, %262 : tensor<8x32x128xf32>
    %264 = stablehlo.multiply %261, %193 : tensor<8x32x1xf32>
    %265 = stablehlo.negate %263 : tensor<8x32x128xf32>
    %266 = stablehlo.reduce(%265 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %267 = stablehlo.reshape %266 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %268 = stablehlo.add %230, %263 : tensor<8x32x128xf32>
    %269 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %270 = stablehlo.divide %264, %269 : tensor<8x32x1xf32>
    %271 = stablehlo.reduce(%270 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %272 = stablehlo.broadcast_in_dim %271, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %273 = stablehlo.multiply %272, %181 : tensor<8x32x128xf32>
    %274 = stablehlo.negate %273 : tensor<8x32x128xf32>
    %275 = stablehlo.reduce(%274 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %276 = stablehlo.reshape %275 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %277 = stablehlo.add %268, %273 : tensor<8x32x128xf32>
    %278 = stablehlo.add %267, %276 : tensor<8x32x1xf32>
    %279 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %280 = stablehlo.divide %278, %279 : tensor<8x32x1xf32>
    %281 = stablehlo.reduce(%280 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %282 = stablehlo.broadcast_in_dim %281, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %283 = stablehlo.add %277, %282 : tensor<8x32x128xf32>
    %284 = stablehlo.dot_general %283, %170, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %285 = stablehlo.transpose %284, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %286 = stablehlo.dot_general %283, %arg13, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %287 = stablehlo.reshape %286 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %288 = stablehlo.transpose %287, dims = [0, 2, 3, 1] : (tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %289 = stablehlo.dot_general %288, %145, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %290 = stablehlo.dot_general %288, %164, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %291 = stablehlo.transpose %290, dims = [0, 3, 1, 2] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %292 = stablehlo.broadcast_in_dim %167, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %293 = stablehlo.multiply %289, %292 : tensor<8x4x32x32xf32>
    %294 = stablehlo.multiply %293, %160 : tensor<8x4x32x32xf32>
    %295 = stablehlo.reduce(%294 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %296 = stablehlo.reshape %295 : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %297 = stablehlo.negate %296 : tensor<8x4x32x1xf32>
    %298 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %299 = stablehlo.divide %289, %298 : tensor<8x4x32x32xf32>
    %300 = stablehlo.reduce(%297 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x1xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %301 = stablehlo.broadcast_in_dim %300, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x32xf32>
    %302 = stablehlo.add %299, %301 : tensor<8x4x32x32xf32>
    %303 = stablehlo.multiply %302, %160 : tensor<8x4x32x32xf32>
    %304 = call @_where_2(%153#1, %303) : (tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %305 = stablehlo.broadcast_in_dim %148, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %306 = stablehlo.divide %304, %305 : tensor<8x4x32x32xf32>
    %307 = stablehlo.dot_general %306, %141, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %308 = stablehlo.transpose %307, dims = [0, 2, 1, 3] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %309 = stablehlo.dot_general %306, %143, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %310 = stablehlo.transpose %309, dims = [0, 2, 1, 3] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %311 = stablehlo.reshape %291 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %312 = stablehlo.dot_general %311, %139, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %313 = stablehlo.transpose %312, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %314 = stablehlo.dot_general %311, %arg15, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %315 = stablehlo.reshape %308 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %316 = stablehlo.dot_general %315, %139, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %317 = stablehlo.transpose %316, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %318 = stablehlo.dot_general %315, %arg12, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %319 = stablehlo.add %314, %318 : tensor<8x32x128xf32>
    %320 = stablehlo.reshape %310 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %321 = stablehlo.dot_general %320, %139, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %322 = stablehlo.transpose %321, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %323 = stablehlo.dot_general %320, %arg14, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %324 = stablehlo.add %319, %323 : tensor<8x32x128xf32>
    %325 = stablehlo.multiply %136, %324 : tensor<8x32x128xf32>
    %326 = stablehlo.reduce(%325 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<128xf32>
    %327 = stablehlo.reshape %326 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %328 = stablehlo.broadcast_in_dim %137, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %329 = stablehlo.multiply %324, %328 : tensor<8x32x128xf32>
    %330 = stablehlo.reduce(%327 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %331 = stablehlo.multiply %128, %329 : tensor<8x32x128xf32>
    %332 = stablehlo.reduce(%331 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %333 = stablehlo.reshape %332 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %334 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %335 = stablehlo.multiply %329, %334 : tensor<8x32x128xf32>
    %336 = stablehlo.multiply %333, %134 : tensor<8x32x1xf32>
    %337 = stablehlo.negate %335 : tensor<8x32x128xf32>
    %338 = stablehlo.reduce(%337 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %339 = stablehlo.reshape %338 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %340 = stablehlo.add %283, %335 : tensor<8x32x128xf32>
    %341 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %342 = stablehlo.divide %336, %341 : tensor<8x32x1xf32>
    %343 = stablehlo.reduce(%342 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %344 = stablehlo.broadcast_in_dim %343, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %345 = stablehlo.multiply %344, %122 : tensor<8x32x128xf32>
    %346 = stablehlo.negate %345 : tensor<8x32x128xf32>
    %347 = stablehlo.reduce(%346 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %348 = stablehlo.reshape %347 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %349 = stablehlo.add %340, %345 : tensor<8x32x128xf32>
    %350 = stablehlo.add %339, %348 : tensor<8x32x1xf32>
    %351 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %352 = stablehlo.divide %350, %351 : tensor<8x32x1xf32>
    %353 = stablehlo.reduce(%352 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %354 = stablehlo.broadcast_in_dim %353, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %355 = stablehlo.add %349, %354 : tensor<8x32x128xf32>
    %356 = stablehlo.dot_general %355, %111, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x512xf32>) -> tensor<128x512xf32>
    %357 = stablehlo.transpose %356, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %358 = stablehlo.dot_general %355, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<512x128xf32>) -> tensor<8x32x512xf32>
    %359 = sdy.reshard %358 <@mesh, [{"data"}, {}, {"model"}]> : tensor<8x32x512xf32>
    %360 = stablehlo.multiply %92, %359 : tensor<8x32x512xf32>
    %361 = stablehlo.multiply %359, %109 : tensor<8x32x512xf32>
    %362 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %363 = stablehlo.multiply %362, %360 : tensor<8x32x512xf32>
    %364 = stablehlo.multiply %363, %105 : tensor<8x32x512xf32>
    %365 = stablehlo.multiply %364, %103 : tensor<8x32x512xf32>
    %366 = stablehlo.add %364, %365 : tensor<8x32x512xf32>
    %367 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %368 = stablehlo.multiply %367, %366 : tensor<8x32x512xf32>
    %369 = stablehlo.add %361, %368 : tensor<8x32x512xf32>
    %370 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %371 = stablehlo.multiply %370, %368 : tensor<8x32x512xf32>
    %372 = stablehlo.multiply %371, %97 : tensor<8x32x512xf32>
    %373 = stablehlo.add %369, %372 : tensor<8x32x512xf32>
    %374 = stablehlo.dot_general %373, %91, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<8x32x128xf32>) -> tensor<512x128xf32>
    %375 = stablehlo.transpose %374, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %376 = stablehlo.dot_general %373, %arg2, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x512xf32>, tensor<128x512xf32>) -> tensor<8x32x128xf32>
    %377 = stablehlo.multiply %88, %376 : tensor<8x32x128xf32>
    %378 = stablehlo.reduce(%377 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<128xf32>
    %379 = stablehlo.reshape %378 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %380 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %381 = stablehlo.multiply %376, %380 : tensor<8x32x128xf32>
    %382 = stablehlo.reduce(%379 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %383 = stablehlo.multiply %80, %381 : tensor<8x32x128xf32>
    %384 = stablehlo.reduce(%383 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %385 = stablehlo.reshape %384 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %386 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %387 = stablehlo.multiply %381, %386 : tensor<8x32x128xf32>
    %388 = stablehlo.multiply %385, %86 : tensor<8x32x1xf32>
    %389 = stablehlo.negate %387 : tensor<8x32x128xf32>
    %390 = stablehlo.reduce(%389 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %391 = stablehlo.reshape %390 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %392 = stablehlo.add %355, %387 : tensor<8x32x128xf32>
    %393 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %394 = stablehlo.divide %388, %393 : tensor<8x32x1xf32>
    %395 = stablehlo.reduce(%394 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %396 = stablehlo.broadcast_in_dim %395, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %397 = stablehlo.multiply %396, %74 : tensor<8x32x128xf32>
    %398 = stablehlo.negate %397 : tensor<8x32x128xf32>
    %399 = stablehlo.reduce(%398 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %400 = stablehlo.reshape %399 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %401 = stablehlo.add %392, %397 : tensor<8x32x128xf32>
    %402 = stablehlo.add %391, %400 : tensor<8x32x1xf32>
    %403 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %404 = stablehlo.divide %402, %403 : tensor<8x32x1xf32>
    %405 = stablehlo.reduce(%404 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %406 = stablehlo.broadcast_in_dim %405, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %407 = stablehlo.add %401, %406 : tensor<8x32x128xf32>
    %408 = stablehlo.dot_general %407, %63, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %409 = stablehlo.transpose %408, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %410 = stablehlo.dot_general %407, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %411 = stablehlo.reshape %410 : (tensor<8x32x128xf32>) -> tensor<8x32x4x32xf32>
    %412 = stablehlo.transpose %411, dims = [0, 2, 3, 1] : (tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %413 = stablehlo.dot_general %412, %38, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %414 = stablehlo.dot_general %412, %57, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %415 = stablehlo.transpose %414, dims = [0, 3, 1, 2] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %416 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %417 = stablehlo.multiply %413, %416 : tensor<8x4x32x32xf32>
    %418 = stablehlo.multiply %417, %53 : tensor<8x4x32x32xf32>
    %419 = stablehlo.reduce(%418 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %420 = stablehlo.reshape %419 : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %421 = stablehlo.negate %420 : tensor<8x4x32x1xf32>
    %422 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %423 = stablehlo.divide %413, %422 : tensor<8x4x32x32xf32>
    %424 = stablehlo.reduce(%421 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x1xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %425 = stablehlo.broadcast_in_dim %424, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x32xf32>
    %426 = stablehlo.add %423, %425 : tensor<8x4x32x32xf32>
    %427 = stablehlo.multiply %426, %53 : tensor<8x4x32x32xf32>
    %428 = call @_where_3(%46#1, %427) : (tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %429 = stablehlo.broadcast_in_dim %41, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %430 = stablehlo.divide %428, %429 : tensor<8x4x32x32xf32>
    %431 = stablehlo.dot_general %430, %34, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %432 = stablehlo.transpose %431, dims = [0, 2, 1, 3] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %433 = stablehlo.dot_general %430, %36, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x32xf32>) -> tensor<8x4x32x32xf32>
    %434 = stablehlo.transpose %433, dims = [0, 2, 1, 3] : (tensor<8x4x32x32xf32>) -> tensor<8x32x4x32xf32>
    %435 = stablehlo.reshape %415 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %436 = stablehlo.dot_general %435, %32, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %437 = stablehlo.transpose %436, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %438 = stablehlo.dot_general %435, %arg7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %439 = stablehlo.reshape %432 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %440 = stablehlo.dot_general %439, %32, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %441 = stablehlo.transpose %440, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %442 = stablehlo.dot_general %439, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %443 = stablehlo.add %438, %442 : tensor<8x32x128xf32>
    %444 = stablehlo.reshape %434 : (tensor<8x32x4x32xf32>) -> tensor<8x32x128xf32>
    %445 = stablehlo.dot_general %444, %32, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x128xf32>) -> tensor<128x128xf32>
    %446 = stablehlo.transpose %445, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %447 = stablehlo.dot_general %444, %arg6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<128x128xf32>) -> tensor<8x32x128xf32>
    %448 = stablehlo.add %443, %447 : tensor<8x32x128xf32>
    %449 = stablehlo.multiply %29, %448 : tensor<8x32x128xf32>
    %450 = stablehlo.reduce(%449 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<128xf32>
    %451 = stablehlo.reshape %450 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %452 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x32x128xf32>
    %453 = stablehlo.multiply %448, %452 : tensor<8x32x128xf32>
    %454 = stablehlo.reduce(%451 init: %cst_12) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %455 = stablehlo.multiply %21, %453 : tensor<8x32x128xf32>
    %456 = stablehlo.reduce(%455 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %457 = stablehlo.reshape %456 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %458 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %459 = stablehlo.multiply %453, %458 : tensor<8x32x128xf32>
    %460 = stablehlo.multiply %457, %27 : tensor<8x32x1xf32>
    %461 = stablehlo.negate %459 : tensor<8x32x128xf32>
    %462 = stablehlo.reduce(%461 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %463 = stablehlo.reshape %462 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %464 = stablehlo.add %407, %459 : tensor<8x32x128xf32>
    %465 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %466 = stablehlo.divide %460, %465 : tensor<8x32x1xf32>
    %467 = stablehlo.reduce(%466 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %468 = stablehlo.broadcast_in_dim %467, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %469 = stablehlo.multiply %468, %15 : tensor<8x32x128xf32>
    %470 = stablehlo.negate %469 : tensor<8x32x128xf32>
    %471 = stablehlo.reduce(%470 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %472 = stablehlo.reshape %471 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %473 = stablehlo.add %464, %469 : tensor<8x32x128xf32>
    %474 = stablehlo.add %463, %472 : tensor<8x32x1xf32>
    %475 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %476 = stablehlo.divide %474, %475 : tensor<8x32x1xf32>
    %477 = stablehlo.reduce(%476 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %478 = stablehlo.broadcast_in_dim %477, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %479 = stablehlo.add %473, %478 : tensor<8x32x128xf32>
    %480 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<512x128xf32>
    %481 = "stablehlo.scatter"(%480, %5, %479) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %483 = stablehlo.add %arg18, %arg19 : tensor<f32>
      stablehlo.return %483 : tensor<f32>
    }) : (tensor<512x128xf32>, tensor<8x32x1xi32>, tensor<8x32x128xf32>) -> tensor<512x128xf32>
    %482 = stablehlo.add %231, %481 : tensor<512x128xf32>
    return %454, %382, %375, %357, %441, %409, %446, %437, %330, %258, %251, %233, %317, %285, %322, %313, %482 : tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<512x128xf32>
  }
  func.func private @tril(%arg0: tensor<32x32xi1>) -> tensor<32x32xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<32x32xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<32x32xi32>
    %2 = stablehlo.add %0, %1 : tensor<32x32xi32>
    %3 = stablehlo.iota dim = 1 : tensor<32x32xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<32x32xi1>, tensor<32x32xi1>
    return %6 : tensor<32x32xi1>
  }
  func.func private @_where(%arg0: tensor<32x32xi1>, %arg1: tensor<8x4x32x32xf32>, %arg2: tensor<f32>) -> (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<32x32xi1>) -> tensor<8x4x32x32xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %3, %1 : tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>
  }
  func.func private @_where_0(%arg0: tensor<32x32xi1>, %arg1: tensor<8x4x32x32xf32>, %arg2: tensor<f32>) -> (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<32x32xi1>) -> tensor<8x4x32x32xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %3, %1 : tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>
  }
  func.func private @log_softmax(%arg0: tensor<8x32x512xf32>) -> (tensor<8x32x512xf32>, tensor<8x32x1xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [2] : (tensor<8x32x512xf32>, tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x512xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x32x512xf32>
    %6 = stablehlo.exponential %5 : tensor<8x32x512xf32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x32x512xf32>, tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    return %6, %8 : tensor<8x32x512xf32>, tensor<8x32x1xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<8x32x512xf32>, %arg1: tensor<8x32x1xf32>, %arg2: tensor<8x32x512xf32>) -> tensor<8x32x512xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.negate %arg2 : tensor<8x32x512xf32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x32x512xf32>, tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.reshape %1 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x32x1xf32>
    %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x512xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x32x512xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x32x512xf32>
    return %7 : tensor<8x32x512xf32>
  }
  func.func private @_where_2(%arg0: tensor<8x4x32x32xi1>, %arg1: tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %1 : tensor<8x4x32x32xf32>
  }
  func.func private @_where_3(%arg0: tensor<8x4x32x32xi1>, %arg1: tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %1 : tensor<8x4x32x32xf32>
  }
}
