// Lowered from JAX 0.10.2: more jnp indexing (advanced indices, .at[] updates, vmapped gathers/scatters).
module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5x6xf32>, %arg1: tensor<3xi32>, %arg2: tensor<3xi32>, %arg3: tensor<3xi32>) -> (tensor<3x5x6xf32> {jax.result_info = "result[0]"}, tensor<4x3x6xf32> {jax.result_info = "result[1]"}, tensor<4x5x3xf32> {jax.result_info = "result[2]"}, tensor<3x6xf32> {jax.result_info = "result[3]"}, tensor<3x5xf32> {jax.result_info = "result[4]"}, tensor<4x3xf32> {jax.result_info = "result[5]"}, tensor<3xf32> {jax.result_info = "result[6]"}, tensor<2x3x6xf32> {jax.result_info = "result[7]"}, tensor<3x6xf32> {jax.result_info = "result[8]"}, tensor<4x5x3xf32> {jax.result_info = "result[9]"}, tensor<3x3x6xf32> {jax.result_info = "result[10]"}, tensor<3x3xf32> {jax.result_info = "result[11]"}, tensor<4x5x6xf32> {jax.result_info = "result[12]"}, tensor<4x5x6xf32> {jax.result_info = "result[13]"}, tensor<4x5x6xf32> {jax.result_info = "result[14]"}, tensor<4x5x6xf32> {jax.result_info = "result[15]"}, tensor<4x5x6xf32> {jax.result_info = "result[16]"}, tensor<4x5x6xf32> {jax.result_info = "result[17]"}, tensor<4x5x6xf32> {jax.result_info = "result[18]"}, tensor<3x6xf32> {jax.result_info = "result[19]"}, tensor<3x5xf32> {jax.result_info = "result[20]"}, tensor<3x5x6xf32> {jax.result_info = "result[21]"}, tensor<3x5xf32> {jax.result_info = "result[22]"}, tensor<4x5x2xf32> {jax.result_info = "result[23]"}, tensor<4x1x6xf32> {jax.result_info = "result[24]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<3xi1>, tensor<3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5, 6>}> : (tensor<4x5x6xf32>, tensor<3x1xi32>) -> tensor<3x5x6xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %8 = stablehlo.compare LT, %arg2, %7, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %10 = stablehlo.add %arg2, %9 : tensor<3xi32>
    %11 = stablehlo.select %8, %10, %arg2 : tensor<3xi1>, tensor<3xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %13 = "stablehlo.gather"(%arg0, %12) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1, 6>}> : (tensor<4x5x6xf32>, tensor<3x1xi32>) -> tensor<4x3x6xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %15 = stablehlo.compare LT, %arg3, %14, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %17 = stablehlo.add %arg3, %16 : tensor<3xi32>
    %18 = stablehlo.select %15, %17, %arg3 : tensor<3xi1>, tensor<3xi32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %20 = "stablehlo.gather"(%arg0, %19) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 5, 1>}> : (tensor<4x5x6xf32>, tensor<3x1xi32>) -> tensor<4x5x3xf32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %22 = stablehlo.compare LT, %arg1, %21, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_6 = stablehlo.constant dense<4> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %24 = stablehlo.add %arg1, %23 : tensor<3xi32>
    %25 = stablehlo.select %22, %24, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %27 = stablehlo.compare LT, %arg2, %26, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_8 = stablehlo.constant dense<5> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %29 = stablehlo.add %arg2, %28 : tensor<3xi32>
    %30 = stablehlo.select %27, %29, %arg2 : tensor<3xi1>, tensor<3xi32>
    %31 = stablehlo.broadcast_in_dim %25, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %32 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %33 = stablehlo.concatenate %31, %32, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %34 = "stablehlo.gather"(%arg0, %33) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<4x5x6xf32>, tensor<3x2xi32>) -> tensor<3x6xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %35 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %36 = stablehlo.compare LT, %arg1, %35, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_10 = stablehlo.constant dense<4> : tensor<i32>
    %37 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %38 = stablehlo.add %arg1, %37 : tensor<3xi32>
    %39 = stablehlo.select %36, %38, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %40 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %41 = stablehlo.compare LT, %arg3, %40, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_12 = stablehlo.constant dense<6> : tensor<i32>
    %42 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %43 = stablehlo.add %arg3, %42 : tensor<3xi32>
    %44 = stablehlo.select %41, %43, %arg3 : tensor<3xi1>, tensor<3xi32>
    %45 = stablehlo.broadcast_in_dim %39, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %46 = stablehlo.broadcast_in_dim %44, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %47 = stablehlo.concatenate %45, %46, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %48 = "stablehlo.gather"(%arg0, %47) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2], start_index_map = [0, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5, 1>}> : (tensor<4x5x6xf32>, tensor<3x2xi32>) -> tensor<3x5xf32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %49 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %50 = stablehlo.compare LT, %arg2, %49, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_14 = stablehlo.constant dense<5> : tensor<i32>
    %51 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %52 = stablehlo.add %arg2, %51 : tensor<3xi32>
    %53 = stablehlo.select %50, %52, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %54 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %55 = stablehlo.compare LT, %arg3, %54, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_16 = stablehlo.constant dense<6> : tensor<i32>
    %56 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %57 = stablehlo.add %arg3, %56 : tensor<3xi32>
    %58 = stablehlo.select %55, %57, %arg3 : tensor<3xi1>, tensor<3xi32>
    %59 = stablehlo.broadcast_in_dim %53, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %60 = stablehlo.broadcast_in_dim %58, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %61 = stablehlo.concatenate %59, %60, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %62 = "stablehlo.gather"(%arg0, %61) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1, 2], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1, 1>}> : (tensor<4x5x6xf32>, tensor<3x2xi32>) -> tensor<4x3xf32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %63 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %64 = stablehlo.compare LT, %arg1, %63, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_18 = stablehlo.constant dense<4> : tensor<i32>
    %65 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %66 = stablehlo.add %arg1, %65 : tensor<3xi32>
    %67 = stablehlo.select %64, %66, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_19 = stablehlo.constant dense<0> : tensor<i32>
    %68 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %69 = stablehlo.compare LT, %arg2, %68, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_20 = stablehlo.constant dense<5> : tensor<i32>
    %70 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %71 = stablehlo.add %arg2, %70 : tensor<3xi32>
    %72 = stablehlo.select %69, %71, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %73 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %74 = stablehlo.compare LT, %arg3, %73, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_22 = stablehlo.constant dense<6> : tensor<i32>
    %75 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %76 = stablehlo.add %arg3, %75 : tensor<3xi32>
    %77 = stablehlo.select %74, %76, %arg3 : tensor<3xi1>, tensor<3xi32>
    %78 = stablehlo.broadcast_in_dim %67, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %79 = stablehlo.broadcast_in_dim %72, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %80 = stablehlo.broadcast_in_dim %77, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %81 = stablehlo.concatenate %78, %79, %80, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x3xi32>
    %82 = "stablehlo.gather"(%arg0, %81) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [0, 1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x5x6xf32>, tensor<3x3xi32>) -> tensor<3xf32>
    %c_23 = stablehlo.constant dense<0> : tensor<i32>
    %83 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %84 = stablehlo.compare LT, %arg2, %83, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_24 = stablehlo.constant dense<5> : tensor<i32>
    %85 = stablehlo.broadcast_in_dim %c_24, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %86 = stablehlo.add %arg2, %85 : tensor<3xi32>
    %87 = stablehlo.select %84, %86, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_25 = stablehlo.constant dense<1> : tensor<i32>
    %88 = stablehlo.broadcast_in_dim %c_25, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %89 = stablehlo.broadcast_in_dim %87, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %90 = stablehlo.concatenate %88, %89, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %91 = "stablehlo.gather"(%arg0, %90) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1, 6>}> : (tensor<4x5x6xf32>, tensor<3x2xi32>) -> tensor<2x3x6xf32>
    %c_26 = stablehlo.constant dense<0> : tensor<i32>
    %92 = stablehlo.broadcast_in_dim %c_26, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %93 = stablehlo.compare LT, %arg1, %92, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_27 = stablehlo.constant dense<4> : tensor<i32>
    %94 = stablehlo.broadcast_in_dim %c_27, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %95 = stablehlo.add %arg1, %94 : tensor<3xi32>
    %96 = stablehlo.select %93, %95, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_28 = stablehlo.constant dense<2> : tensor<i32>
    %97 = stablehlo.broadcast_in_dim %c_28, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %98 = stablehlo.convert %97 : tensor<3xi32>
    %99 = stablehlo.broadcast_in_dim %96, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %100 = stablehlo.broadcast_in_dim %98, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %101 = stablehlo.concatenate %99, %100, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %102 = "stablehlo.gather"(%arg0, %101) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<4x5x6xf32>, tensor<3x2xi32>) -> tensor<3x6xf32>
    %c_29 = stablehlo.constant dense<0> : tensor<i32>
    %103 = stablehlo.broadcast_in_dim %c_29, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %104 = stablehlo.compare LT, %arg3, %103, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_30 = stablehlo.constant dense<6> : tensor<i32>
    %105 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %106 = stablehlo.add %arg3, %105 : tensor<3xi32>
    %107 = stablehlo.select %104, %106, %arg3 : tensor<3xi1>, tensor<3xi32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %109 = "stablehlo.gather"(%arg0, %108) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 5, 1>}> : (tensor<4x5x6xf32>, tensor<3x1xi32>) -> tensor<4x5x3xf32>
    %110 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %111 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %c_31 = stablehlo.constant dense<0> : tensor<i32>
    %112 = stablehlo.broadcast_in_dim %c_31, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %113 = stablehlo.compare LT, %110, %112, SIGNED : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %c_32 = stablehlo.constant dense<4> : tensor<i32>
    %114 = stablehlo.broadcast_in_dim %c_32, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %115 = stablehlo.add %110, %114 : tensor<3x1xi32>
    %116 = stablehlo.select %113, %115, %110 : tensor<3x1xi1>, tensor<3x1xi32>
    %c_33 = stablehlo.constant dense<0> : tensor<i32>
    %117 = stablehlo.broadcast_in_dim %c_33, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %118 = stablehlo.compare LT, %111, %117, SIGNED : (tensor<1x3xi32>, tensor<1x3xi32>) -> tensor<1x3xi1>
    %c_34 = stablehlo.constant dense<5> : tensor<i32>
    %119 = stablehlo.broadcast_in_dim %c_34, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %120 = stablehlo.add %111, %119 : tensor<1x3xi32>
    %121 = stablehlo.select %118, %120, %111 : tensor<1x3xi1>, tensor<1x3xi32>
    %122 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x3xi32>
    %123 = stablehlo.broadcast_in_dim %121, dims = [0, 1] : (tensor<1x3xi32>) -> tensor<3x3xi32>
    %124 = stablehlo.broadcast_in_dim %122, dims = [0, 1] : (tensor<3x3xi32>) -> tensor<3x3x1xi32>
    %125 = stablehlo.broadcast_in_dim %123, dims = [0, 1] : (tensor<3x3xi32>) -> tensor<3x3x1xi32>
    %126 = stablehlo.concatenate %124, %125, dim = 2 : (tensor<3x3x1xi32>, tensor<3x3x1xi32>) -> tensor<3x3x2xi32>
    %127 = "stablehlo.gather"(%arg0, %126) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<4x5x6xf32>, tensor<3x3x2xi32>) -> tensor<3x3x6xf32>
    %c_35 = stablehlo.constant dense<0> : tensor<i32>
    %128 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %129 = stablehlo.compare LT, %arg1, %128, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_36 = stablehlo.constant dense<4> : tensor<i32>
    %130 = stablehlo.broadcast_in_dim %c_36, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %131 = stablehlo.add %arg1, %130 : tensor<3xi32>
    %132 = stablehlo.select %129, %131, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_37 = stablehlo.constant dense<0> : tensor<i32>
    %133 = stablehlo.broadcast_in_dim %c_37, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %134 = stablehlo.compare LT, %arg3, %133, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_38 = stablehlo.constant dense<6> : tensor<i32>
    %135 = stablehlo.broadcast_in_dim %c_38, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %136 = stablehlo.add %arg3, %135 : tensor<3xi32>
    %137 = stablehlo.select %134, %136, %arg3 : tensor<3xi1>, tensor<3xi32>
    %138 = stablehlo.iota dim = 0 : tensor<3xi32>
    %c_39 = stablehlo.constant dense<2> : tensor<i32>
    %139 = stablehlo.broadcast_in_dim %c_39, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %140 = stablehlo.multiply %139, %138 : tensor<3xi32>
    %c_40 = stablehlo.constant dense<0> : tensor<i32>
    %141 = stablehlo.broadcast_in_dim %c_40, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %142 = stablehlo.add %141, %140 : tensor<3xi32>
    %143 = stablehlo.broadcast_in_dim %132, dims = [0] : (tensor<3xi32>) -> tensor<3x3x1xi32>
    %144 = stablehlo.broadcast_in_dim %137, dims = [0] : (tensor<3xi32>) -> tensor<3x3x1xi32>
    %145 = stablehlo.broadcast_in_dim %142, dims = [1] : (tensor<3xi32>) -> tensor<3x3x1xi32>
    %146 = stablehlo.concatenate %143, %144, %145, dim = 2 : (tensor<3x3x1xi32>, tensor<3x3x1xi32>, tensor<3x3x1xi32>) -> tensor<3x3x3xi32>
    %147 = "stablehlo.gather"(%arg0, %146) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [0, 2, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x5x6xf32>, tensor<3x3x3xi32>) -> tensor<3x3xf32>
    %c_41 = stablehlo.constant dense<0> : tensor<i32>
    %148 = stablehlo.broadcast_in_dim %c_41, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %149 = stablehlo.compare LT, %arg1, %148, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_42 = stablehlo.constant dense<4> : tensor<i32>
    %150 = stablehlo.broadcast_in_dim %c_42, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %151 = stablehlo.add %arg1, %150 : tensor<3xi32>
    %152 = stablehlo.select %149, %151, %arg1 : tensor<3xi1>, tensor<3xi32>
    %153 = stablehlo.broadcast_in_dim %152, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5x6xf32>
    %155 = "stablehlo.scatter"(%arg0, %153, %154) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %304 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %304 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x1xi32>, tensor<3x5x6xf32>) -> tensor<4x5x6xf32>
    %c_43 = stablehlo.constant dense<0> : tensor<i32>
    %156 = stablehlo.broadcast_in_dim %c_43, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %157 = stablehlo.compare LT, %arg2, %156, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_44 = stablehlo.constant dense<5> : tensor<i32>
    %158 = stablehlo.broadcast_in_dim %c_44, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %159 = stablehlo.add %arg2, %158 : tensor<3xi32>
    %160 = stablehlo.select %157, %159, %arg2 : tensor<3xi1>, tensor<3xi32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %cst_45 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<4x3x6xf32>
    %163 = "stablehlo.scatter"(%arg0, %161, %162) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 2], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x1xi32>, tensor<4x3x6xf32>) -> tensor<4x5x6xf32>
    %c_46 = stablehlo.constant dense<0> : tensor<i32>
    %164 = stablehlo.broadcast_in_dim %c_46, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %165 = stablehlo.compare LT, %arg1, %164, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_47 = stablehlo.constant dense<4> : tensor<i32>
    %166 = stablehlo.broadcast_in_dim %c_47, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %167 = stablehlo.add %arg1, %166 : tensor<3xi32>
    %168 = stablehlo.select %165, %167, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_48 = stablehlo.constant dense<0> : tensor<i32>
    %169 = stablehlo.broadcast_in_dim %c_48, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %170 = stablehlo.compare LT, %arg3, %169, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_49 = stablehlo.constant dense<6> : tensor<i32>
    %171 = stablehlo.broadcast_in_dim %c_49, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %172 = stablehlo.add %arg3, %171 : tensor<3xi32>
    %173 = stablehlo.select %170, %172, %arg3 : tensor<3xi1>, tensor<3xi32>
    %174 = stablehlo.broadcast_in_dim %168, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %175 = stablehlo.broadcast_in_dim %173, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %176 = stablehlo.concatenate %174, %175, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %cst_50 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %178 = "stablehlo.scatter"(%arg0, %176, %177) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 2], scatter_dims_to_operand_dims = [0, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %304 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      stablehlo.return %304 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x2xi32>, tensor<3x5xf32>) -> tensor<4x5x6xf32>
    %c_51 = stablehlo.constant dense<0> : tensor<i32>
    %179 = stablehlo.broadcast_in_dim %c_51, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %180 = stablehlo.compare LT, %arg2, %179, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_52 = stablehlo.constant dense<5> : tensor<i32>
    %181 = stablehlo.broadcast_in_dim %c_52, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %182 = stablehlo.add %arg2, %181 : tensor<3xi32>
    %183 = stablehlo.select %180, %182, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_53 = stablehlo.constant dense<0> : tensor<i32>
    %184 = stablehlo.broadcast_in_dim %c_53, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %185 = stablehlo.compare LT, %arg3, %184, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_54 = stablehlo.constant dense<6> : tensor<i32>
    %186 = stablehlo.broadcast_in_dim %c_54, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %187 = stablehlo.add %arg3, %186 : tensor<3xi32>
    %188 = stablehlo.select %185, %187, %arg3 : tensor<3xi1>, tensor<3xi32>
    %189 = stablehlo.broadcast_in_dim %183, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %190 = stablehlo.broadcast_in_dim %188, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %191 = stablehlo.concatenate %189, %190, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %cst_55 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %193 = "stablehlo.scatter"(%arg0, %191, %192) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %304 = stablehlo.minimum %arg4, %arg5 : tensor<f32>
      stablehlo.return %304 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x2xi32>, tensor<4x3xf32>) -> tensor<4x5x6xf32>
    %c_56 = stablehlo.constant dense<0> : tensor<i32>
    %194 = stablehlo.broadcast_in_dim %c_56, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %195 = stablehlo.compare LT, %arg1, %194, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_57 = stablehlo.constant dense<4> : tensor<i32>
    %196 = stablehlo.broadcast_in_dim %c_57, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %197 = stablehlo.add %arg1, %196 : tensor<3xi32>
    %198 = stablehlo.select %195, %197, %arg1 : tensor<3xi1>, tensor<3xi32>
    %c_58 = stablehlo.constant dense<0> : tensor<i32>
    %199 = stablehlo.broadcast_in_dim %c_58, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %200 = stablehlo.compare LT, %arg2, %199, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_59 = stablehlo.constant dense<5> : tensor<i32>
    %201 = stablehlo.broadcast_in_dim %c_59, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %202 = stablehlo.add %arg2, %201 : tensor<3xi32>
    %203 = stablehlo.select %200, %202, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_60 = stablehlo.constant dense<0> : tensor<i32>
    %204 = stablehlo.broadcast_in_dim %c_60, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %205 = stablehlo.compare LT, %arg3, %204, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_61 = stablehlo.constant dense<6> : tensor<i32>
    %206 = stablehlo.broadcast_in_dim %c_61, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %207 = stablehlo.add %arg3, %206 : tensor<3xi32>
    %208 = stablehlo.select %205, %207, %arg3 : tensor<3xi1>, tensor<3xi32>
    %209 = stablehlo.broadcast_in_dim %198, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %210 = stablehlo.broadcast_in_dim %203, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %211 = stablehlo.broadcast_in_dim %208, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %212 = stablehlo.concatenate %209, %210, %211, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x3xi32>
    %cst_62 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %214 = "stablehlo.scatter"(%arg0, %212, %213) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1, 2], scatter_dims_to_operand_dims = [0, 1, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %304 = stablehlo.multiply %arg4, %arg5 : tensor<f32>
      stablehlo.return %304 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x3xi32>, tensor<3xf32>) -> tensor<4x5x6xf32>
    %215 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %216 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %c_63 = stablehlo.constant dense<0> : tensor<i32>
    %217 = stablehlo.broadcast_in_dim %c_63, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %218 = stablehlo.compare LT, %215, %217, SIGNED : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %c_64 = stablehlo.constant dense<4> : tensor<i32>
    %219 = stablehlo.broadcast_in_dim %c_64, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %220 = stablehlo.add %215, %219 : tensor<3x1xi32>
    %221 = stablehlo.select %218, %220, %215 : tensor<3x1xi1>, tensor<3x1xi32>
    %c_65 = stablehlo.constant dense<0> : tensor<i32>
    %222 = stablehlo.broadcast_in_dim %c_65, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %223 = stablehlo.compare LT, %216, %222, SIGNED : (tensor<1x3xi32>, tensor<1x3xi32>) -> tensor<1x3xi1>
    %c_66 = stablehlo.constant dense<5> : tensor<i32>
    %224 = stablehlo.broadcast_in_dim %c_66, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %225 = stablehlo.add %216, %224 : tensor<1x3xi32>
    %226 = stablehlo.select %223, %225, %216 : tensor<1x3xi1>, tensor<1x3xi32>
    %227 = stablehlo.broadcast_in_dim %221, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x3xi32>
    %228 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<1x3xi32>) -> tensor<3x3xi32>
    %229 = stablehlo.broadcast_in_dim %227, dims = [0, 1] : (tensor<3x3xi32>) -> tensor<3x3x1xi32>
    %230 = stablehlo.broadcast_in_dim %228, dims = [0, 1] : (tensor<3x3xi32>) -> tensor<3x3x1xi32>
    %231 = stablehlo.concatenate %229, %230, dim = 2 : (tensor<3x3x1xi32>, tensor<3x3x1xi32>) -> tensor<3x3x2xi32>
    %cst_67 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<3x3x6xf32>
    %233 = "stablehlo.scatter"(%arg0, %231, %232) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %304 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %304 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x3x2xi32>, tensor<3x3x6xf32>) -> tensor<4x5x6xf32>
    %c_68 = stablehlo.constant dense<0> : tensor<i32>
    %234 = stablehlo.broadcast_in_dim %c_68, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %235 = stablehlo.compare LT, %arg2, %234, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_69 = stablehlo.constant dense<5> : tensor<i32>
    %236 = stablehlo.broadcast_in_dim %c_69, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %237 = stablehlo.add %arg2, %236 : tensor<3xi32>
    %238 = stablehlo.select %235, %237, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_70 = stablehlo.constant dense<1> : tensor<i32>
    %239 = stablehlo.broadcast_in_dim %c_70, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %240 = stablehlo.broadcast_in_dim %238, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %241 = stablehlo.concatenate %239, %240, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %242 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<2x3x6xf32>
    %243 = "stablehlo.scatter"(%arg0, %241, %242) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 2], inserted_window_dims = [1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<4x5x6xf32>, tensor<3x2xi32>, tensor<2x3x6xf32>) -> tensor<4x5x6xf32>
    %244 = stablehlo.slice %arg0 [0:3, 0:5, 0:6] : (tensor<4x5x6xf32>) -> tensor<3x5x6xf32>
    %c_72 = stablehlo.constant dense<3> : tensor<i32>
    %245 = call @remainder(%arg1, %c_72) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
    %c_73 = stablehlo.constant dense<0> : tensor<i32>
    %246 = stablehlo.broadcast_in_dim %c_73, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %247 = stablehlo.compare LT, %245, %246, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_74 = stablehlo.constant dense<5> : tensor<i32>
    %248 = stablehlo.broadcast_in_dim %c_74, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %249 = stablehlo.add %245, %248 : tensor<3xi32>
    %250 = stablehlo.select %247, %249, %245 : tensor<3xi1>, tensor<3xi32>
    %c_75 = stablehlo.constant dense<0> : tensor<i32>
    %c_76 = stablehlo.constant dense<0> : tensor<i32>
    %251 = stablehlo.compare LT, %c_75, %c_76, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_77 = stablehlo.constant dense<0> : tensor<i32>
    %c_78 = stablehlo.constant dense<6> : tensor<i32>
    %252 = stablehlo.add %c_77, %c_78 : tensor<i32>
    %c_79 = stablehlo.constant dense<0> : tensor<i32>
    %253 = stablehlo.select %251, %252, %c_79 : tensor<i1>, tensor<i32>
    %254 = stablehlo.broadcast_in_dim %250, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %255 = stablehlo.broadcast_in_dim %253, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %256 = stablehlo.concatenate %254, %255, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %257 = "stablehlo.gather"(%244, %256) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<3x5x6xf32>, tensor<3x2xi32>) -> tensor<3x1x6xf32>
    %258 = stablehlo.reshape %257 : (tensor<3x1x6xf32>) -> tensor<3x6xf32>
    %259 = stablehlo.slice %arg0 [0:3, 0:5, 0:6] : (tensor<4x5x6xf32>) -> tensor<3x5x6xf32>
    %c_80 = stablehlo.constant dense<3> : tensor<i32>
    %260 = call @remainder(%arg1, %c_80) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
    %c_81 = stablehlo.constant dense<0> : tensor<i32>
    %c_82 = stablehlo.constant dense<0> : tensor<i32>
    %261 = stablehlo.compare LT, %c_81, %c_82, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_83 = stablehlo.constant dense<0> : tensor<i32>
    %c_84 = stablehlo.constant dense<5> : tensor<i32>
    %262 = stablehlo.add %c_83, %c_84 : tensor<i32>
    %c_85 = stablehlo.constant dense<0> : tensor<i32>
    %263 = stablehlo.select %261, %262, %c_85 : tensor<i1>, tensor<i32>
    %c_86 = stablehlo.constant dense<0> : tensor<i32>
    %264 = stablehlo.broadcast_in_dim %c_86, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %265 = stablehlo.compare LT, %260, %264, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_87 = stablehlo.constant dense<6> : tensor<i32>
    %266 = stablehlo.broadcast_in_dim %c_87, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %267 = stablehlo.add %260, %266 : tensor<3xi32>
    %268 = stablehlo.select %265, %267, %260 : tensor<3xi1>, tensor<3xi32>
    %269 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %270 = stablehlo.broadcast_in_dim %268, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %271 = stablehlo.concatenate %269, %270, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %272 = "stablehlo.gather"(%259, %271) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 5, 1>}> : (tensor<3x5x6xf32>, tensor<3x2xi32>) -> tensor<3x5x1xf32>
    %273 = stablehlo.reshape %272 : (tensor<3x5x1xf32>) -> tensor<3x5xf32>
    %274 = stablehlo.slice %arg0 [0:3, 0:5, 0:6] : (tensor<4x5x6xf32>) -> tensor<3x5x6xf32>
    %c_88 = stablehlo.constant dense<3> : tensor<i32>
    %275 = call @remainder(%arg1, %c_88) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
    %c_89 = stablehlo.constant dense<0> : tensor<i32>
    %276 = stablehlo.broadcast_in_dim %c_89, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %277 = stablehlo.compare LT, %275, %276, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_90 = stablehlo.constant dense<5> : tensor<i32>
    %278 = stablehlo.broadcast_in_dim %c_90, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %279 = stablehlo.add %275, %278 : tensor<3xi32>
    %280 = stablehlo.select %277, %279, %275 : tensor<3xi1>, tensor<3xi32>
    %281 = stablehlo.broadcast_in_dim %280, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %cst_91 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %282 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %283 = stablehlo.broadcast_in_dim %282, dims = [1] : (tensor<6xf32>) -> tensor<3x6xf32>
    %284 = "stablehlo.scatter"(%274, %281, %283) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %304 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %304 : tensor<f32>
    }) : (tensor<3x5x6xf32>, tensor<3x1xi32>, tensor<3x6xf32>) -> tensor<3x5x6xf32>
    %285 = stablehlo.slice %arg0 [0:4, 0:5, 0:3] : (tensor<4x5x6xf32>) -> tensor<4x5x3xf32>
    %c_92 = stablehlo.constant dense<0> : tensor<i32>
    %286 = stablehlo.broadcast_in_dim %c_92, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %287 = stablehlo.compare LT, %arg3, %286, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_93 = stablehlo.constant dense<4> : tensor<i32>
    %288 = stablehlo.broadcast_in_dim %c_93, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %289 = stablehlo.add %arg3, %288 : tensor<3xi32>
    %290 = stablehlo.select %287, %289, %arg3 : tensor<3xi1>, tensor<3xi32>
    %c_94 = stablehlo.constant dense<0> : tensor<i32>
    %c_95 = stablehlo.constant dense<0> : tensor<i32>
    %291 = stablehlo.compare LT, %c_94, %c_95, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_96 = stablehlo.constant dense<0> : tensor<i32>
    %c_97 = stablehlo.constant dense<5> : tensor<i32>
    %292 = stablehlo.add %c_96, %c_97 : tensor<i32>
    %c_98 = stablehlo.constant dense<0> : tensor<i32>
    %293 = stablehlo.select %291, %292, %c_98 : tensor<i1>, tensor<i32>
    %294 = stablehlo.broadcast_in_dim %290, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %295 = stablehlo.broadcast_in_dim %293, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %296 = stablehlo.concatenate %294, %295, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %297 = stablehlo.transpose %285, dims = [2, 0, 1] : (tensor<4x5x3xf32>) -> tensor<3x4x5xf32>
    %298 = "stablehlo.gather"(%297, %296) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 5>}> : (tensor<3x4x5xf32>, tensor<3x2xi32>) -> tensor<3x1x5xf32>
    %299 = stablehlo.reshape %298 : (tensor<3x1x5xf32>) -> tensor<3x5xf32>
    %c_99 = stablehlo.constant dense<0> : tensor<i32>
    %300 = stablehlo.broadcast_in_dim %c_99, dims = [] : (tensor<i32>) -> tensor<4x5x2xi32>
    %301 = call @take_along_axis(%arg0, %300) : (tensor<4x5x6xf32>, tensor<4x5x2xi32>) -> tensor<4x5x2xf32>
    %c_100 = stablehlo.constant dense<0> : tensor<i32>
    %302 = stablehlo.broadcast_in_dim %c_100, dims = [] : (tensor<i32>) -> tensor<4x1x6xi32>
    %303 = call @take_along_axis_0(%arg0, %302) : (tensor<4x5x6xf32>, tensor<4x1x6xi32>) -> tensor<4x1x6xf32>
    return %6, %13, %20, %34, %48, %62, %82, %91, %102, %109, %127, %147, %155, %163, %178, %193, %214, %233, %243, %258, %273, %284, %299, %301, %303 : tensor<3x5x6xf32>, tensor<4x3x6xf32>, tensor<4x5x3xf32>, tensor<3x6xf32>, tensor<3x5xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<2x3x6xf32>, tensor<3x6xf32>, tensor<4x5x3xf32>, tensor<3x3x6xf32>, tensor<3x3xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<3x6xf32>, tensor<3x5xf32>, tensor<3x5x6xf32>, tensor<3x5xf32>, tensor<4x5x2xf32>, tensor<4x1x6xf32>
  }
  func.func private @remainder(%arg0: tensor<3xi32>, %arg1: tensor<i32>) -> tensor<3xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<3xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<3xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
    %12 = stablehlo.and %11, %6 : tensor<3xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %14 = stablehlo.add %4, %13 : tensor<3xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<3xi1>, tensor<3xi32>
    return %15 : tensor<3xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x5x6xf32>, %arg1: tensor<4x5x2xi32>) -> tensor<4x5x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x5x2xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x5x2xi32>, tensor<4x5x2xi32>) -> tensor<4x5x2xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x5x2xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x5x2xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x5x2xi1>, tensor<4x5x2xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x5x2xi32>) -> tensor<4x5x2x1xi32>
    %c_1 = stablehlo.constant dense<5> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x5x2x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x5x2x1xi32>, tensor<4x5x2x1xi32>) -> tensor<4x5x2x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<4x5x2x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x5x2x1xi32>, tensor<4x5x2x1xi32>) -> tensor<4x5x2x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x5x2x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<4x5x2x1xi1>, tensor<i1>) -> tensor<4x5x2xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x5x6xf32>, tensor<4x5x2x1xi32>) -> tensor<4x5x2xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5x2xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<4x5x2xi1>, tensor<4x5x2xf32>
    return %15 : tensor<4x5x2xf32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<4x5x6xf32>, %arg1: tensor<4x1x6xi32>) -> tensor<4x1x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x1x6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x1x6xi32>, tensor<4x1x6xi32>) -> tensor<4x1x6xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x1x6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x1x6xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x1x6xi1>, tensor<4x1x6xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x1x6xi32>) -> tensor<4x1x6x1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x1x6x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x1x6x1xi32>, tensor<4x1x6x1xi32>) -> tensor<4x1x6x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<4x1x6x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x1x6x1xi32>, tensor<4x1x6x1xi32>) -> tensor<4x1x6x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x1x6x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<4x1x6x1xi1>, tensor<i1>) -> tensor<4x1x6xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0, 2], start_indices_batching_dims = [0, 2], start_index_map = [1], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x5x6xf32>, tensor<4x1x6x1xi32>) -> tensor<4x1x6xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1x6xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<4x1x6xi1>, tensor<4x1x6xf32>
    return %15 : tensor<4x1x6xf32>
  }
}
