// Elementwise ops (unary, binary, ternary), scalars, size-0 and size-1 dims, and chlo ops (no rule).
func.func @f(%a: tensor<2x1x4xf32>, %b: tensor<2x1x4xf32>, %i: tensor<2x1x4xi32>, %p: tensor<2x1x4xi1>, %s: tensor<f32>, %ps: tensor<i1>, %c: tensor<2x1x4xcomplex<f32>>, %u: tensor<2x1x4xui32>) {
  %0 = stablehlo.abs %a : tensor<2x1x4xf32>
  %1 = stablehlo.cbrt %a : tensor<2x1x4xf32>
  %2 = stablehlo.ceil %a : tensor<2x1x4xf32>
  %3 = stablehlo.count_leading_zeros %i : tensor<2x1x4xi32>
  %4 = stablehlo.cosine %a : tensor<2x1x4xf32>
  %5 = stablehlo.exponential %a : tensor<2x1x4xf32>
  %6 = stablehlo.exponential_minus_one %a : tensor<2x1x4xf32>
  %7 = stablehlo.floor %a : tensor<2x1x4xf32>
  %8 = stablehlo.is_finite %a : (tensor<2x1x4xf32>) -> tensor<2x1x4xi1>
  %9 = stablehlo.log %a : tensor<2x1x4xf32>
  %10 = stablehlo.log_plus_one %a : tensor<2x1x4xf32>
  %11 = stablehlo.logistic %a : tensor<2x1x4xf32>
  %12 = stablehlo.negate %a : tensor<2x1x4xf32>
  %13 = stablehlo.not %i : tensor<2x1x4xi32>
  %14 = stablehlo.popcnt %i : tensor<2x1x4xi32>
  %15 = stablehlo.round_nearest_afz %a : tensor<2x1x4xf32>
  %16 = stablehlo.round_nearest_even %a : tensor<2x1x4xf32>
  %17 = stablehlo.rsqrt %a : tensor<2x1x4xf32>
  %18 = stablehlo.sign %a : tensor<2x1x4xf32>
  %19 = stablehlo.sine %a : tensor<2x1x4xf32>
  %20 = stablehlo.sqrt %a : tensor<2x1x4xf32>
  %21 = stablehlo.tan %a : tensor<2x1x4xf32>
  %22 = stablehlo.tanh %a : tensor<2x1x4xf32>
  %23 = stablehlo.real %c : (tensor<2x1x4xcomplex<f32>>) -> tensor<2x1x4xf32>
  %24 = stablehlo.imag %c : (tensor<2x1x4xcomplex<f32>>) -> tensor<2x1x4xf32>
  %25 = stablehlo.convert %a : (tensor<2x1x4xf32>) -> tensor<2x1x4xi32>
  %26 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2x1x4xf32>
  %30 = stablehlo.add %a, %b : tensor<2x1x4xf32>
  %31 = stablehlo.and %i, %i : tensor<2x1x4xi32>
  %32 = stablehlo.atan2 %a, %b : tensor<2x1x4xf32>
  %33 = stablehlo.compare GT, %a, %b : (tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xi1>
  %34 = stablehlo.complex %a, %b : tensor<2x1x4xcomplex<f32>>
  %35 = stablehlo.divide %a, %b : tensor<2x1x4xf32>
  %36 = stablehlo.maximum %a, %b : tensor<2x1x4xf32>
  %37 = stablehlo.minimum %a, %b : tensor<2x1x4xf32>
  %38 = stablehlo.multiply %a, %b : tensor<2x1x4xf32>
  %39 = stablehlo.or %i, %i : tensor<2x1x4xi32>
  %40 = stablehlo.power %a, %b : tensor<2x1x4xf32>
  %41 = stablehlo.remainder %a, %b : tensor<2x1x4xf32>
  %42 = stablehlo.shift_left %i, %i : tensor<2x1x4xi32>
  %43 = stablehlo.shift_right_arithmetic %i, %i : tensor<2x1x4xi32>
  %44 = stablehlo.shift_right_logical %i, %i : tensor<2x1x4xi32>
  %45 = stablehlo.subtract %a, %b : tensor<2x1x4xf32>
  %46 = stablehlo.xor %i, %i : tensor<2x1x4xi32>
  %50 = stablehlo.select %p, %a, %b : tensor<2x1x4xi1>, tensor<2x1x4xf32>
  %51 = stablehlo.select %ps, %a, %b : tensor<i1>, tensor<2x1x4xf32>
  %52 = stablehlo.clamp %s, %a, %s : (tensor<f32>, tensor<2x1x4xf32>, tensor<f32>) -> tensor<2x1x4xf32>
  %53 = stablehlo.clamp %a, %a, %b : tensor<2x1x4xf32>
  %54 = stablehlo.bitcast_convert %a : (tensor<2x1x4xf32>) -> tensor<2x1x4xi32>
  %55 = stablehlo.bitcast_convert %a : (tensor<2x1x4xf32>) -> tensor<2x1x4x2xi16>
  %56 = stablehlo.bitcast_convert %u : (tensor<2x1x4xui32>) -> tensor<2x1x4x4xi8>
  %57 = stablehlo.reverse %a, dims = [0, 2] : tensor<2x1x4xf32>
  %58 = stablehlo.add %s, %s : tensor<f32>
  %60 = chlo.erf %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %61 = chlo.erf_inv %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %62 = chlo.lgamma %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %63 = chlo.digamma %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %64 = chlo.asin %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %65 = chlo.sinh %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %66 = chlo.square %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %67 = chlo.broadcast_add %a, %b : (tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %68 = chlo.is_inf %a : tensor<2x1x4xf32> -> tensor<2x1x4xi1>
  %69 = chlo.next_after %a, %b : tensor<2x1x4xf32>, tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %70 = chlo.erfc %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %71 = chlo.tan %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %72 = chlo.conj %c : tensor<2x1x4xcomplex<f32>> -> tensor<2x1x4xcomplex<f32>>
  %73 = chlo.polygamma %a, %b : tensor<2x1x4xf32>, tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %74 = chlo.bessel_i1e %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %75 = chlo.cosh %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %76 = chlo.acos %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %77 = chlo.atan %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %78 = chlo.atanh %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %79 = chlo.acosh %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %80 = chlo.asinh %a : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %81 = chlo.zeta %a, %b : tensor<2x1x4xf32>, tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %82 = chlo.is_neg_inf %a : tensor<2x1x4xf32> -> tensor<2x1x4xi1>
  %83 = chlo.is_pos_inf %a : tensor<2x1x4xf32> -> tensor<2x1x4xi1>
  %84 = chlo.mulhi %i, %i : tensor<2x1x4xi32>, tensor<2x1x4xi32> -> tensor<2x1x4xi32>
  return
}

func.func @shapes(%s: tensor<f32>, %z: tensor<2x0x4xf32>, %v: tensor<7xf32>, %r5: tensor<2x1x3x1x5xf32>, %i: tensor<4xi32>) {
  %0 = stablehlo.add %s, %s : tensor<f32>
  %1 = stablehlo.add %z, %z : tensor<2x0x4xf32>
  %2 = stablehlo.multiply %v, %v : tensor<7xf32>
  %3 = stablehlo.negate %r5 : tensor<2x1x3x1x5xf32>
  %4 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %5 = stablehlo.compare EQ, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %6 = stablehlo.exponential %s : tensor<f32>
  %7 = stablehlo.select %5, %4, %4 : tensor<4xi1>, tensor<4xf32>
  %8 = stablehlo.clamp %s, %s, %s : tensor<f32>
  %9 = stablehlo.clamp %4, %4, %4 : tensor<4xf32>
  return
}
