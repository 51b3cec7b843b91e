// Lowered from JAX 0.10.2 (jax.jit(...).lower(...).as_text()); covers what real programs emit.
module @jit_misc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<4x8xcomplex<f32>>, %arg3: tensor<4x4xf32>) -> (tensor<8x3xf32> {jax.result_info = "result[0]"}, tensor<8x16xf32> {jax.result_info = "result[1]"}, tensor<8x16xi32> {jax.result_info = "result[2]"}, tensor<8x16xf32> {jax.result_info = "result[3]"}, tensor<8x16xf32> {jax.result_info = "result[4]"}, tensor<8x16xf32> {jax.result_info = "result[5]"}, tensor<4x8xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<8x9xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<8x16xf32> {jax.result_info = "result[8]"}, tensor<4x8xcomplex<f32>> {jax.result_info = "result[9]"}, tensor<4x4xf32> {jax.result_info = "result[10]"}, tensor<4x4xf32> {jax.result_info = "result[11]"}, tensor<4x4xf32> {jax.result_info = "result[12]"}, tensor<8x19xf32> {jax.result_info = "result[13]"}, tensor<11x19xf32> {jax.result_info = "result[14]"}, tensor<8xf32> {jax.result_info = "result[15]"}, tensor<8xi32> {jax.result_info = "result[16]"}, tensor<16xf32> {jax.result_info = "result[17]"}, tensor<16x16xf32> {jax.result_info = "result[18]"}, tensor<16x16xf32> {jax.result_info = "result[19]"}, tensor<4x8xf32> {jax.result_info = "result[20]"}, tensor<8x4xf32> {jax.result_info = "result[21]"}, tensor<3xf32> {jax.result_info = "result[22]"}, tensor<8x8xf32> {jax.result_info = "result[23]"}, tensor<8x16xf32> {jax.result_info = "result[24]"}, tensor<8x16xf32> {jax.result_info = "result[25]"}, tensor<8x16xf32> {jax.result_info = "result[26]"}, tensor<8x16xf32> {jax.result_info = "result[27]"}, tensor<8x16xf32> {jax.result_info = "result[28]"}, tensor<8x16xf32> {jax.result_info = "result[29]"}, tensor<8x16xf32> {jax.result_info = "result[30]"}, tensor<8x16xi32> {jax.result_info = "result[31]"}, tensor<8x16xi1> {jax.result_info = "result[32]"}, tensor<8x8xf32> {jax.result_info = "result[33]"}, tensor<4xf32> {jax.result_info = "result[34]"}) {
    %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
    %0 = call @sort(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = call @argsort(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xi32>
    %2 = call @cumsum(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = call @cumprod(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = call @cummax(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %5 = call @fft(%arg2) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %6 = call @fft_2(%arg1) : (tensor<8x16xf32>) -> tensor<8x9xcomplex<f32>>
    %7 = call @fft_2(%arg1) : (tensor<8x16xf32>) -> tensor<8x9xcomplex<f32>>
    %8 = call @fft_3(%7) : (tensor<8x9xcomplex<f32>>) -> tensor<8x16xf32>
    %9 = call @fft_4(%arg2) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %10 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %11 = stablehlo.dot_general %arg3, %10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %12 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %13 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %15 = stablehlo.add %12, %14 : tensor<4x4xi32>
    %16 = stablehlo.compare EQ, %15, %13, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %17 = stablehlo.convert %16 : (tensor<4x4xi1>) -> tensor<4x4xf32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %19 = stablehlo.multiply %18, %17 : tensor<4x4xf32>
    %20 = stablehlo.add %11, %19 : tensor<4x4xf32>
    %21 = call @cholesky(%20) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %22 = stablehlo.slice %arg1 [0:4, 0:4] : (tensor<8x16xf32>) -> tensor<4x4xf32>
    %23 = call @_solve_triangular(%arg3, %22) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %24 = stablehlo.slice %arg1 [0:4, 0:4] : (tensor<8x16xf32>) -> tensor<4x4xf32>
    %25 = call @_solve_triangular_5(%arg3, %24) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %26 = stablehlo.slice %arg0 [0:8, 0:3] : (tensor<8x16xf32>) -> tensor<8x3xf32>
    %27 = stablehlo.concatenate %arg0, %26, dim = 1 : (tensor<8x16xf32>, tensor<8x3xf32>) -> tensor<8x19xf32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %28 = call @_pad(%arg0, %c_0) : (tensor<8x16xf32>, tensor<i32>) -> tensor<11x19xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %29 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %30 = call @argmax(%arg0) : (tensor<8x16xf32>) -> tensor<8xi32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.reduce(%arg1 init: %cst_2) applies stablehlo.maximum across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %33 = stablehlo.maximum %32, %31 : tensor<16xf32>
    %34 = stablehlo.is_finite %33 : (tensor<16xf32>) -> tensor<16xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %36 = stablehlo.select %34, %33, %35 : tensor<16xi1>, tensor<16xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %39 = stablehlo.subtract %arg1, %38 : tensor<8x16xf32>
    %40 = stablehlo.exponential %39 : tensor<8x16xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
    %42 = stablehlo.abs %41 : tensor<16xf32>
    %43 = stablehlo.log %42 : tensor<16xf32>
    %44 = stablehlo.add %43, %36 : tensor<16xf32>
    %45 = stablehlo.reshape %arg0 : (tensor<8x16xf32>) -> tensor<1x8x1x16xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3] : (tensor<1x8x1x16xf32>) -> tensor<2x8x1x16xf32>
    %47 = stablehlo.reshape %46 : (tensor<2x8x1x16xf32>) -> tensor<16x16xf32>
    %48 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<8x16xf32>) -> tensor<8x2x16xf32>
    %49 = stablehlo.reshape %48 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<f32>
    %51 = "stablehlo.reduce_window"(%arg1, %50) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %92 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      stablehlo.return %92 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<4x8xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %c_8 = stablehlo.constant dense<32> : tensor<i32>
    %52 = stablehlo.shift_right_logical %c_7, %c_8 : tensor<i32>
    %53 = stablehlo.convert %52 : (tensor<i32>) -> tensor<ui32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_9 = stablehlo.constant dense<-1> : tensor<i32>
    %55 = stablehlo.and %c_7, %c_9 : tensor<i32>
    %56 = stablehlo.convert %55 : (tensor<i32>) -> tensor<ui32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %58 = stablehlo.concatenate %54, %57, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %59 = call @_normal(%58) : (tensor<2xui32>) -> tensor<8x4xf32>
    %c_10 = stablehlo.constant dense<1> : tensor<i32>
    %c_11 = stablehlo.constant dense<32> : tensor<i32>
    %60 = stablehlo.shift_right_logical %c_10, %c_11 : tensor<i32>
    %61 = stablehlo.convert %60 : (tensor<i32>) -> tensor<ui32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_12 = stablehlo.constant dense<-1> : tensor<i32>
    %63 = stablehlo.and %c_10, %c_12 : tensor<i32>
    %64 = stablehlo.convert %63 : (tensor<i32>) -> tensor<ui32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %66 = stablehlo.concatenate %62, %65, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %67 = call @_uniform_6(%66, %cst_13, %cst_14) : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
    %68 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %69 = stablehlo.dot_general %arg1, %68, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %70 = chlo.erf %arg0 : tensor<8x16xf32> -> tensor<8x16xf32>
    %71 = stablehlo.tanh %arg0 : tensor<8x16xf32>
    %72 = chlo.erf_inv %71 : tensor<8x16xf32> -> tensor<8x16xf32>
    %73 = call @round(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %74 = call @clip(%arg0, %cst_15, %cst_16) : (tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %76 = stablehlo.compare GT, %arg0, %75, FLOAT : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = call @_where(%76, %arg0, %cst_18) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    %78 = stablehlo.exponential_minus_one %arg0 : tensor<8x16xf32>
    %79 = stablehlo.abs %arg0 : tensor<8x16xf32>
    %80 = stablehlo.log_plus_one %79 : tensor<8x16xf32>
    %81 = stablehlo.add %78, %80 : tensor<8x16xf32>
    %82 = stablehlo.sign %arg0 : tensor<8x16xf32>
    %83 = stablehlo.add %81, %82 : tensor<8x16xf32>
    %84 = stablehlo.convert %arg0 : (tensor<8x16xf32>) -> tensor<8x16xbf16>
    %85 = stablehlo.convert %84 : (tensor<8x16xbf16>) -> tensor<8x16xf32>
    %86 = stablehlo.bitcast_convert %arg0 : (tensor<8x16xf32>) -> tensor<8x16xi32>
    %87 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %88 = call @qr(%arg1) : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %89 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %90 = stablehlo.dot_general %arg3, %89, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %91 = call @eigh(%90) : (tensor<4x4xf32>) -> tensor<4xf32>
    return %values, %0, %1, %2, %3, %4, %5, %6, %8, %9, %21, %23, %25, %27, %28, %29, %30, %44, %47, %49, %51, %59, %67, %69, %70, %72, %73, %74, %77, %83, %85, %86, %87, %88, %91 : tensor<8x3xf32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x8xcomplex<f32>>, tensor<8x9xcomplex<f32>>, tensor<8x16xf32>, tensor<4x8xcomplex<f32>>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<8x19xf32>, tensor<11x19xf32>, tensor<8xf32>, tensor<8xi32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<3xf32>, tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xi1>, tensor<8x8xf32>, tensor<4xf32>
  }
  func.func private @sort(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
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
  func.func private @cumsum(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @cumprod(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = call @cumprod_1(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @cumprod_1(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 8, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @cummax(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 8, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @fft(%arg0: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %0 : tensor<4x8xcomplex<f32>>
  }
  func.func private @fft_2(%arg0: tensor<8x16xf32>) -> tensor<8x9xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [16] : (tensor<8x16xf32>) -> tensor<8x9xcomplex<f32>>
    return %0 : tensor<8x9xcomplex<f32>>
  }
  func.func private @fft_3(%arg0: tensor<8x9xcomplex<f32>>) -> tensor<8x16xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [16] : (tensor<8x9xcomplex<f32>>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @fft_4(%arg0: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [4, 8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %0 : tensor<4x8xcomplex<f32>>
  }
  func.func private @cholesky(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x4xf32>
    %4:2 = stablehlo.custom_call @lapack_spotrf_ffi(%3) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=4, j=4, k=4, l=4}, custom>} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %6 = stablehlo.compare EQ, %4#1, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<4x4xi1>
    %10 = stablehlo.select %9, %4#0, %8 : tensor<4x4xi1>, tensor<4x4xf32>
    %11 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %13 = stablehlo.add %11, %12 : tensor<4x4xi32>
    %14 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %15 = stablehlo.compare GE, %13, %14, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %17 = stablehlo.select %15, %10, %16 : tensor<4x4xi1>, tensor<4x4xf32>
    return %17 : tensor<4x4xf32>
  }
  func.func private @_solve_triangular(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.custom_call @lapack_strsm_ffi(%arg0, %arg1) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k, l])->([m, n]) {i=4, j=4, k=4, l=4, m=4, n=4}, custom>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @_solve_triangular_5(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.custom_call @lapack_strsm_ffi(%arg0, %arg1) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k, l])->([m, n]) {i=4, j=4, k=4, l=4, m=4, n=4}, custom>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @_pad(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>) -> tensor<11x19xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<11x19xf32>
    return %1 : tensor<11x19xf32>
  }
  func.func private @argmax(%arg0: tensor<8x16xf32>) -> tensor<8xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<8xi32>
  }
  func.func private @_normal(%arg0: tensor<2xui32>) -> tensor<8x4xf32> {
    %0 = call @_normal_real(%arg0) : (tensor<2xui32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func private @_normal_real(%arg0: tensor<2xui32>) -> tensor<8x4xf32> {
    %cst = stablehlo.constant dense<-0.99999994> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x4xf32>
    %1 = chlo.erf_inv %0 : tensor<8x4xf32> -> tensor<8x4xf32>
    %cst_1 = stablehlo.constant dense<1.41421354> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<8x4xf32>
    return %3 : tensor<8x4xf32>
  }
  func.func private @_uniform(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %2 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>
    %4 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.iota dim = 0 : tensor<8x4xui64>
    %7 = stablehlo.iota dim = 1 : tensor<8x4xui64>
    %c = stablehlo.constant dense<4> : tensor<ui64>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<8x4xui64>
    %9 = stablehlo.multiply %8, %6 : tensor<8x4xui64>
    %c_0 = stablehlo.constant dense<1> : tensor<ui64>
    %10 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<8x4xui64>
    %11 = stablehlo.multiply %10, %7 : tensor<8x4xui64>
    %12 = stablehlo.add %9, %11 : tensor<8x4xui64>
    %c_1 = stablehlo.constant dense<32> : tensor<ui64>
    %13 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<8x4xui64>
    %14 = stablehlo.shift_right_logical %12, %13 : tensor<8x4xui64>
    %15 = stablehlo.convert %12 : (tensor<8x4xui64>) -> tensor<8x4xui32>
    %16 = stablehlo.convert %14 : (tensor<8x4xui64>) -> tensor<8x4xui32>
    %17:2 = call @threefry2x32(%3, %5, %16, %15) : (tensor<ui32>, tensor<ui32>, tensor<8x4xui32>, tensor<8x4xui32>) -> (tensor<8x4xui32>, tensor<8x4xui32>)
    %18 = stablehlo.xor %17#0, %17#1 : tensor<8x4xui32>
    %c_2 = stablehlo.constant dense<9> : tensor<ui32>
    %19 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %20 = stablehlo.shift_right_logical %18, %19 : tensor<8x4xui32>
    %c_3 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %21 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %22 = stablehlo.or %20, %21 : tensor<8x4xui32>
    %23 = stablehlo.bitcast_convert %22 : (tensor<8x4xui32>) -> tensor<8x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %25 = stablehlo.subtract %23, %24 : tensor<8x4xf32>
    %26 = stablehlo.subtract %1, %0 : tensor<1x1xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x4xf32>
    %28 = stablehlo.multiply %25, %27 : tensor<8x4xf32>
    %29 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x4xf32>
    %30 = stablehlo.add %28, %29 : tensor<8x4xf32>
    %31 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x4xf32>
    %32 = stablehlo.maximum %31, %30 : tensor<8x4xf32>
    return %32 : tensor<8x4xf32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<8x4xui32>, %arg3: tensor<8x4xui32>) -> (tensor<8x4xui32>, tensor<8x4xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<8x4xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<8x4xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<8x4xui32>, tensor<8x4xui32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<8x4xui32>, %arg2: tensor<8x4xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<8x4xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<8x4xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<8x4xui32>
    %9 = stablehlo.or %5, %8 : tensor<8x4xui32>
    %10 = stablehlo.xor %3, %9 : tensor<8x4xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<8x4xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<8x4xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<8x4xui32>
    %19 = stablehlo.or %15, %18 : tensor<8x4xui32>
    %20 = stablehlo.xor %13, %19 : tensor<8x4xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<8x4xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<8x4xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<8x4xui32>
    %29 = stablehlo.or %25, %28 : tensor<8x4xui32>
    %30 = stablehlo.xor %23, %29 : tensor<8x4xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<8x4xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<8x4xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<8x4xui32>
    %39 = stablehlo.or %35, %38 : tensor<8x4xui32>
    %40 = stablehlo.xor %33, %39 : tensor<8x4xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %42 = stablehlo.add %33, %41 : tensor<8x4xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %44 = stablehlo.add %40, %43 : tensor<8x4xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %48 = stablehlo.add %44, %47 : tensor<8x4xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_uniform_6(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %4 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %7 = stablehlo.reshape %6 : (tensor<1xui32>) -> tensor<ui32>
    %8 = stablehlo.iota dim = 0 : tensor<3xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %10 = stablehlo.multiply %9, %8 : tensor<3xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %11 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %12 = stablehlo.shift_right_logical %10, %11 : tensor<3xui64>
    %13 = stablehlo.convert %10 : (tensor<3xui64>) -> tensor<3xui32>
    %14 = stablehlo.convert %12 : (tensor<3xui64>) -> tensor<3xui32>
    %15:2 = call @threefry2x32_7(%5, %7, %14, %13) : (tensor<ui32>, tensor<ui32>, tensor<3xui32>, tensor<3xui32>) -> (tensor<3xui32>, tensor<3xui32>)
    %16 = stablehlo.xor %15#0, %15#1 : tensor<3xui32>
    %c_1 = stablehlo.constant dense<9> : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %18 = stablehlo.shift_right_logical %16, %17 : tensor<3xui32>
    %c_2 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %19 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %20 = stablehlo.or %18, %19 : tensor<3xui32>
    %21 = stablehlo.bitcast_convert %20 : (tensor<3xui32>) -> tensor<3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %23 = stablehlo.subtract %21, %22 : tensor<3xf32>
    %24 = stablehlo.subtract %3, %2 : tensor<1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
    %26 = stablehlo.multiply %23, %25 : tensor<3xf32>
    %27 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
    %28 = stablehlo.add %26, %27 : tensor<3xf32>
    %29 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
    %30 = stablehlo.maximum %29, %28 : tensor<3xf32>
    return %30 : tensor<3xf32>
  }
  func.func private @threefry2x32_7(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<3xui32>, %arg3: tensor<3xui32>) -> (tensor<3xui32>, tensor<3xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<3xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<3xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call_8(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<3xui32>, tensor<3xui32>
  }
  func.func private @closed_call_8(%arg0: tensor<i32>, %arg1: tensor<3xui32>, %arg2: tensor<3xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<3xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<3xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<3xui32>
    %9 = stablehlo.or %5, %8 : tensor<3xui32>
    %10 = stablehlo.xor %3, %9 : tensor<3xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<3xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<3xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<3xui32>
    %19 = stablehlo.or %15, %18 : tensor<3xui32>
    %20 = stablehlo.xor %13, %19 : tensor<3xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<3xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<3xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<3xui32>
    %29 = stablehlo.or %25, %28 : tensor<3xui32>
    %30 = stablehlo.xor %23, %29 : tensor<3xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<3xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<3xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<3xui32>
    %39 = stablehlo.or %35, %38 : tensor<3xui32>
    %40 = stablehlo.xor %33, %39 : tensor<3xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %42 = stablehlo.add %33, %41 : tensor<3xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %44 = stablehlo.add %40, %43 : tensor<3xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %48 = stablehlo.add %44, %47 : tensor<3xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @round(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @clip(%arg0: tensor<8x16xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x16xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8x16xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<8x16xf32>
    return %5 : tensor<8x16xf32>
  }
  func.func private @_where(%arg0: tensor<8x16xi1>, %arg1: tensor<8x16xf32>, %arg2: tensor<f32>) -> tensor<8x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<8x16xi1>, tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
  func.func private @qr(%arg0: tensor<8x16xf32>) -> tensor<8x8xf32> {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=8, j=16, k=8, l=16, m=8}, custom>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8xf32>)
    %1 = stablehlo.slice %0#0 [0:8, 0:8] : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.custom_call @lapack_sorgqr_ffi(%1, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k])->([l, m]) {i=8, j=8, k=8, l=8, m=8}, custom>} : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.iota dim = 0 : tensor<8x16xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %5 = stablehlo.add %3, %4 : tensor<8x16xi32>
    %6 = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %9 = stablehlo.select %7, %8, %0#0 : tensor<8x16xi1>, tensor<8x16xf32>
    return %2 : tensor<8x8xf32>
  }
  func.func private @eigh(%arg0: tensor<4x4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x4xf32>
    %4:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%3) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=4, j=4, k=4, l=4, m=4}, custom>} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %6 = stablehlo.compare EQ, %4#2, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<4x4xi1>
    %10 = stablehlo.select %9, %4#0, %8 : tensor<4x4xi1>, tensor<4x4xf32>
    %11 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
    %14 = stablehlo.select %13, %4#1, %12 : tensor<4xi1>, tensor<4xf32>
    return %14 : tensor<4xf32>
  }
}
