// Lowered from JAX 0.10.2 (jax.jit(...).lower(...).as_text()); covers what real programs emit.
module @jit_indexing attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<10xi32>, %arg2: tensor<6xi32>, %arg3: tensor<8x16xf32>, %arg4: tensor<32xf32>, %arg5: tensor<5x2xi32>) -> (tensor<10x16xf32> {jax.result_info = "result[0]"}, tensor<8x6xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}, tensor<5xf32> {jax.result_info = "result[3]"}, tensor<8x10xf32> {jax.result_info = "result[4]"}, tensor<8x16xf32> {jax.result_info = "result[5]"}, tensor<8x16xf32> {jax.result_info = "result[6]"}, tensor<8x16xf32> {jax.result_info = "result[7]"}, tensor<8x16xf32> {jax.result_info = "result[8]"}, tensor<8xf32> {jax.result_info = "result[9]"}, tensor<8x16xf32> {jax.result_info = "result[10]"}, tensor<3x8xf32> {jax.result_info = "result[11]"}, tensor<8x16xf32> {jax.result_info = "result[12]"}, tensor<8x16xf32> {jax.result_info = "result[13]"}, tensor<4x16xf32> {jax.result_info = "result[14]"}, tensor<10xf32> {jax.result_info = "result[15]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<10xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<10xi1>, tensor<10xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<10xi32>) -> tensor<10x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<10x1xi32>) -> tensor<10x16xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %8 = stablehlo.compare LT, %arg2, %7, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_2 = stablehlo.constant dense<16> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %10 = stablehlo.add %arg2, %9 : tensor<6xi32>
    %11 = stablehlo.select %8, %10, %arg2 : tensor<6xi1>, tensor<6xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %13 = "stablehlo.gather"(%arg0, %12) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x16xf32>, tensor<6x1xi32>) -> tensor<8x6xf32>
    %14 = stablehlo.slice %arg1 [0:4] : (tensor<10xi32>) -> tensor<4xi32>
    %15 = stablehlo.slice %arg2 [0:4] : (tensor<6xi32>) -> tensor<4xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %17 = stablehlo.compare LT, %14, %16, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_4 = stablehlo.constant dense<8> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %19 = stablehlo.add %14, %18 : tensor<4xi32>
    %20 = stablehlo.select %17, %19, %14 : tensor<4xi1>, tensor<4xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %22 = stablehlo.compare LT, %15, %21, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_6 = stablehlo.constant dense<16> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %24 = stablehlo.add %15, %23 : tensor<4xi32>
    %25 = stablehlo.select %22, %24, %15 : tensor<4xi1>, tensor<4xi32>
    %26 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %27 = stablehlo.broadcast_in_dim %25, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %28 = stablehlo.concatenate %26, %27, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %29 = "stablehlo.gather"(%arg0, %28) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<4x2xi32>) -> tensor<4xf32>
    %30 = stablehlo.slice %arg5 [0:5, 0:1] : (tensor<5x2xi32>) -> tensor<5x1xi32>
    %31 = stablehlo.reshape %30 : (tensor<5x1xi32>) -> tensor<5xi32>
    %32 = stablehlo.slice %arg5 [0:5, 1:2] : (tensor<5x2xi32>) -> tensor<5x1xi32>
    %33 = stablehlo.reshape %32 : (tensor<5x1xi32>) -> tensor<5xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %34 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %35 = stablehlo.compare LT, %31, %34, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_8 = stablehlo.constant dense<8> : tensor<i32>
    %36 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %37 = stablehlo.add %31, %36 : tensor<5xi32>
    %38 = stablehlo.select %35, %37, %31 : tensor<5xi1>, tensor<5xi32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %40 = stablehlo.compare LT, %33, %39, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_10 = stablehlo.constant dense<16> : tensor<i32>
    %41 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %42 = stablehlo.add %33, %41 : tensor<5xi32>
    %43 = stablehlo.select %40, %42, %33 : tensor<5xi1>, tensor<5xi32>
    %44 = stablehlo.broadcast_in_dim %38, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %45 = stablehlo.broadcast_in_dim %43, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %46 = stablehlo.concatenate %44, %45, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %47 = "stablehlo.gather"(%arg0, %46) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<5x2xi32>) -> tensor<5xf32>
    %48 = call @_take(%arg0, %arg1) : (tensor<8x16xf32>, tensor<10xi32>) -> tensor<8x10xf32>
    %49 = call @argsort(%arg3) : (tensor<8x16xf32>) -> tensor<8x16xi32>
    %50 = call @take_along_axis(%arg3, %49) : (tensor<8x16xf32>, tensor<8x16xi32>) -> tensor<8x16xf32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %51 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %52 = stablehlo.compare LT, %arg1, %51, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %c_12 = stablehlo.constant dense<8> : tensor<i32>
    %53 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %54 = stablehlo.add %arg1, %53 : tensor<10xi32>
    %55 = stablehlo.select %52, %54, %arg1 : tensor<10xi1>, tensor<10xi32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0] : (tensor<10xi32>) -> tensor<10x1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %58 = "stablehlo.scatter"(%arg0, %56, %57) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      stablehlo.return %arg7 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %59 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %60 = stablehlo.compare LT, %arg2, %59, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_14 = stablehlo.constant dense<16> : tensor<i32>
    %61 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %62 = stablehlo.add %arg2, %61 : tensor<6xi32>
    %63 = stablehlo.select %60, %62, %arg2 : tensor<6xi1>, tensor<6xi32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x6xf32>
    %66 = "stablehlo.scatter"(%arg0, %64, %65) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %118 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %118 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<6x1xi32>, tensor<8x6xf32>) -> tensor<8x16xf32>
    %67 = stablehlo.slice %arg1 [0:4] : (tensor<10xi32>) -> tensor<4xi32>
    %68 = stablehlo.slice %arg2 [0:4] : (tensor<6xi32>) -> tensor<4xi32>
    %c_16 = stablehlo.constant dense<0> : tensor<i32>
    %69 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %70 = stablehlo.compare LT, %67, %69, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_17 = stablehlo.constant dense<8> : tensor<i32>
    %71 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %72 = stablehlo.add %67, %71 : tensor<4xi32>
    %73 = stablehlo.select %70, %72, %67 : tensor<4xi1>, tensor<4xi32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %74 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %75 = stablehlo.compare LT, %68, %74, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_19 = stablehlo.constant dense<16> : tensor<i32>
    %76 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %77 = stablehlo.add %68, %76 : tensor<4xi32>
    %78 = stablehlo.select %75, %77, %68 : tensor<4xi1>, tensor<4xi32>
    %79 = stablehlo.broadcast_in_dim %73, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %80 = stablehlo.broadcast_in_dim %78, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %81 = stablehlo.concatenate %79, %80, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %cst_20 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %83 = "stablehlo.scatter"(%arg0, %81, %82) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %118 = stablehlo.multiply %arg6, %arg7 : tensor<f32>
      stablehlo.return %118 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<4x2xi32>, tensor<4xf32>) -> tensor<8x16xf32>
    %84 = stablehlo.slice %arg1 [0:8] : (tensor<10xi32>) -> tensor<8xi32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %85 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %86 = stablehlo.compare LT, %84, %85, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_22 = stablehlo.constant dense<16> : tensor<i32>
    %87 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %88 = stablehlo.add %84, %87 : tensor<8xi32>
    %89 = stablehlo.select %86, %88, %84 : tensor<8xi1>, tensor<8xi32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %91 = "stablehlo.gather"(%arg3, %90) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>
    %92 = stablehlo.reshape %91 : (tensor<8x1xf32>) -> tensor<8xf32>
    %93 = stablehlo.slice %arg1 [0:8] : (tensor<10xi32>) -> tensor<8xi32>
    %c_23 = stablehlo.constant dense<0> : tensor<i32>
    %94 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %95 = stablehlo.compare LT, %93, %94, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_24 = stablehlo.constant dense<16> : tensor<i32>
    %96 = stablehlo.broadcast_in_dim %c_24, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %97 = stablehlo.add %93, %96 : tensor<8xi32>
    %98 = stablehlo.select %95, %97, %93 : tensor<8xi1>, tensor<8xi32>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %101 = "stablehlo.scatter"(%arg3, %99, %100) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %118 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %118 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<8x16xf32>
    %102 = stablehlo.slice %arg0 [2:5, 0:16:2] : (tensor<8x16xf32>) -> tensor<3x8xf32>
    %103 = stablehlo.reverse %arg0, dims = [0] : tensor<8x16xf32>
    %104 = call @_roll_static(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %105 = stablehlo.slice %arg1 [0:1] : (tensor<10xi32>) -> tensor<1xi32>
    %106 = stablehlo.reshape %105 : (tensor<1xi32>) -> tensor<i32>
    %c_26 = stablehlo.constant dense<0> : tensor<i32>
    %107 = stablehlo.compare LT, %106, %c_26, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_27 = stablehlo.constant dense<8> : tensor<i32>
    %108 = stablehlo.add %106, %c_27 : tensor<i32>
    %109 = stablehlo.select %107, %108, %106 : tensor<i1>, tensor<i32>
    %c_28 = stablehlo.constant dense<0> : tensor<i32>
    %110 = stablehlo.dynamic_slice %arg0, %109, %c_28, sizes = [4, 16] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
    %c_29 = stablehlo.constant dense<0> : tensor<i32>
    %111 = stablehlo.broadcast_in_dim %c_29, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %112 = stablehlo.compare LT, %arg1, %111, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %c_30 = stablehlo.constant dense<32> : tensor<i32>
    %113 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %114 = stablehlo.add %arg1, %113 : tensor<10xi32>
    %115 = stablehlo.select %112, %114, %arg1 : tensor<10xi1>, tensor<10xi32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0] : (tensor<10xi32>) -> tensor<10x1xi32>
    %117 = "stablehlo.gather"(%arg4, %116) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<32xf32>, tensor<10x1xi32>) -> tensor<10xf32>
    return %6, %13, %29, %47, %48, %50, %58, %66, %83, %92, %101, %102, %103, %104, %110, %117 : tensor<10x16xf32>, tensor<8x6xf32>, tensor<4xf32>, tensor<5xf32>, tensor<8x10xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>, tensor<3x8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<10xf32>
  }
  func.func private @_take(%arg0: tensor<8x16xf32>, %arg1: tensor<10xi32>) -> tensor<8x10xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<10xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<10xi1>, tensor<10xi32>, tensor<10xi32>) -> tensor<10xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<10xi32>) -> tensor<10x1xi32>
    %c_1 = stablehlo.constant dense<15> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<10x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<10x1xi32>, tensor<10x1xi32>) -> tensor<10x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<10x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<10x1xi32>, tensor<10x1xi32>) -> tensor<10x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<10x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<10x1xi1>, tensor<i1>) -> tensor<10xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x16xf32>, tensor<10x1xi32>) -> tensor<8x10xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<10xi1>) -> tensor<8x10xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<8x10xi1>, tensor<8x10xf32>
    return %16 : tensor<8x10xf32>
  }
  func.func private @_where(%arg0: tensor<10xi1>, %arg1: tensor<10xi32>, %arg2: tensor<10xi32>) -> tensor<10xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<10xi1>, tensor<10xi32>
    return %0 : tensor<10xi32>
  }
  func.func private @argsort(%arg0: tensor<8x16xf32>) -> tensor<8x16xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
    return %1#1 : tensor<8x16xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xi32>) -> tensor<8x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x16xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x16xi1>, tensor<8x16xi32>
    %5 = stablehlo.reshape %4 : (tensor<8x16xi32>) -> tensor<8x16x1xi32>
    %c_1 = stablehlo.constant dense<15> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x16x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x16x1xi32>, tensor<8x16x1xi32>) -> tensor<8x16x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x16x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x16x1xi32>, tensor<8x16x1xi32>) -> tensor<8x16x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x16x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x16x1xi1>, tensor<i1>) -> tensor<8x16xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<8x16x1xi32>) -> tensor<8x16xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<8x16xi1>, tensor<8x16xf32>
    return %15 : tensor<8x16xf32>
  }
  func.func private @_roll_static(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.slice %arg0 [0:8, 13:16] : (tensor<8x16xf32>) -> tensor<8x3xf32>
    %1 = stablehlo.slice %arg0 [0:8, 0:13] : (tensor<8x16xf32>) -> tensor<8x13xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<8x3xf32>, tensor<8x13xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
