// Every element type a dense constant can have goes through each pass (issue 24):
// complex constants (RoPE) once made the bindings raise while an op's attributes were read.
module @element_types {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=1]>
  func.func @main(%arg0: tensor<8x4xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg1: tensor<8x4xcomplex<f32>> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg2: tensor<8x4xcomplex<f64>> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg3: tensor<8x4xcomplex<f64>> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg4: tensor<8x4xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg5: tensor<8x4xi1> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg6: tensor<8x4xi2> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg7: tensor<8x4xi2> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg8: tensor<8x4xi4> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg9: tensor<8x4xi4> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg10: tensor<8x4xi8> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg11: tensor<8x4xi8> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg12: tensor<8x4xi16> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg13: tensor<8x4xi16> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg14: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg15: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg16: tensor<8x4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg17: tensor<8x4xi64> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg18: tensor<8x4xui4> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg19: tensor<8x4xui4> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg20: tensor<8x4xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg21: tensor<8x4xui8> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg22: tensor<8x4xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg23: tensor<8x4xui32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg24: tensor<8x4xui64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg25: tensor<8x4xui64> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg26: tensor<8x4xf8E4M3FN> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg27: tensor<8x4xf8E4M3FN> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg28: tensor<8x4xf8E5M2> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg29: tensor<8x4xf8E5M2> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg30: tensor<8x4xf8E4M3FNUZ> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg31: tensor<8x4xf8E4M3FNUZ> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg32: tensor<8x4xf8E5M2FNUZ> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg33: tensor<8x4xf8E5M2FNUZ> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg34: tensor<8x4xf8E4M3B11FNUZ> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg35: tensor<8x4xf8E4M3B11FNUZ> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg36: tensor<8x4xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg37: tensor<8x4xbf16> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg38: tensor<8x4xf16> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg39: tensor<8x4xf16> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg40: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg41: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>},
      %arg42: tensor<8x4xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
      %arg43: tensor<8x4xf64> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2, "c"=1]>, [{}, {"b"}p1]>})
      -> (tensor<8x4xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xcomplex<f32>>,
          tensor<8x4xcomplex<f64>> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xcomplex<f64>>,
          tensor<8x4xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi1>,
          tensor<8x4xi2> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi2>,
          tensor<8x4xi4> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi4>,
          tensor<8x4xi8> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi8>,
          tensor<8x4xi16> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi16>,
          tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi32>,
          tensor<8x4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xi64>,
          tensor<8x4xui4> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xui4>,
          tensor<8x4xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xui8>,
          tensor<8x4xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xui32>,
          tensor<8x4xui64> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xui64>,
          tensor<8x4xf8E4M3FN> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf8E4M3FN>,
          tensor<8x4xf8E5M2> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf8E5M2>,
          tensor<8x4xf8E4M3FNUZ> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf8E4M3FNUZ>,
          tensor<8x4xf8E5M2FNUZ> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf8E5M2FNUZ>,
          tensor<8x4xf8E4M3B11FNUZ> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf8E4M3B11FNUZ>,
          tensor<8x4xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xbf16>,
          tensor<8x4xf16> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf16>,
          tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf32>,
          tensor<8x4xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
          tensor<8x4xf64>) {
    %c0 = stablehlo.constant dense<(0.0,1.0)> : tensor<8x4xcomplex<f32>>
    %x0 = stablehlo.add %arg0, %c0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xcomplex<f32>>
    %y0 = sdy.sharding_constraint %x0 <@mesh, [{}, {"b"}p0]> : tensor<8x4xcomplex<f32>>
    %t0 = stablehlo.transpose %c0, dims = [0, 1] : (tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
    %z0 = stablehlo.add %y0, %t0 : tensor<8x4xcomplex<f32>>
    %s0 = stablehlo.slice %z0 [0:1, 0:1] : (tensor<8x4xcomplex<f32>>) -> tensor<1x1xcomplex<f32>>
    %r0 = stablehlo.reshape %s0 : (tensor<1x1xcomplex<f32>>) -> tensor<complex<f32>>
    %b0 = stablehlo.broadcast_in_dim %r0, dims = [] : (tensor<complex<f32>>) -> tensor<8x4xcomplex<f32>>
    %w0 = stablehlo.add %b0, %arg1 : tensor<8x4xcomplex<f32>>
    %c1 = stablehlo.constant dense<(0.0,1.0)> : tensor<8x4xcomplex<f64>>
    %x1 = stablehlo.add %arg2, %c1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xcomplex<f64>>
    %y1 = sdy.sharding_constraint %x1 <@mesh, [{}, {"b"}p0]> : tensor<8x4xcomplex<f64>>
    %t1 = stablehlo.transpose %c1, dims = [0, 1] : (tensor<8x4xcomplex<f64>>) -> tensor<8x4xcomplex<f64>>
    %z1 = stablehlo.add %y1, %t1 : tensor<8x4xcomplex<f64>>
    %s1 = stablehlo.slice %z1 [0:1, 0:1] : (tensor<8x4xcomplex<f64>>) -> tensor<1x1xcomplex<f64>>
    %r1 = stablehlo.reshape %s1 : (tensor<1x1xcomplex<f64>>) -> tensor<complex<f64>>
    %b1 = stablehlo.broadcast_in_dim %r1, dims = [] : (tensor<complex<f64>>) -> tensor<8x4xcomplex<f64>>
    %w1 = stablehlo.add %b1, %arg3 : tensor<8x4xcomplex<f64>>
    %c2 = stablehlo.constant dense<true> : tensor<8x4xi1>
    %x2 = stablehlo.add %arg4, %c2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi1>
    %y2 = sdy.sharding_constraint %x2 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi1>
    %t2 = stablehlo.transpose %c2, dims = [0, 1] : (tensor<8x4xi1>) -> tensor<8x4xi1>
    %z2 = stablehlo.add %y2, %t2 : tensor<8x4xi1>
    %s2 = stablehlo.slice %z2 [0:1, 0:1] : (tensor<8x4xi1>) -> tensor<1x1xi1>
    %r2 = stablehlo.reshape %s2 : (tensor<1x1xi1>) -> tensor<i1>
    %b2 = stablehlo.broadcast_in_dim %r2, dims = [] : (tensor<i1>) -> tensor<8x4xi1>
    %w2 = stablehlo.add %b2, %arg5 : tensor<8x4xi1>
    %c3 = stablehlo.constant dense<3> : tensor<8x4xi2>
    %x3 = stablehlo.add %arg6, %c3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi2>
    %y3 = sdy.sharding_constraint %x3 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi2>
    %t3 = stablehlo.transpose %c3, dims = [0, 1] : (tensor<8x4xi2>) -> tensor<8x4xi2>
    %z3 = stablehlo.add %y3, %t3 : tensor<8x4xi2>
    %s3 = stablehlo.slice %z3 [0:1, 0:1] : (tensor<8x4xi2>) -> tensor<1x1xi2>
    %r3 = stablehlo.reshape %s3 : (tensor<1x1xi2>) -> tensor<i2>
    %b3 = stablehlo.broadcast_in_dim %r3, dims = [] : (tensor<i2>) -> tensor<8x4xi2>
    %w3 = stablehlo.add %b3, %arg7 : tensor<8x4xi2>
    %c4 = stablehlo.constant dense<3> : tensor<8x4xi4>
    %x4 = stablehlo.add %arg8, %c4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi4>
    %y4 = sdy.sharding_constraint %x4 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi4>
    %t4 = stablehlo.transpose %c4, dims = [0, 1] : (tensor<8x4xi4>) -> tensor<8x4xi4>
    %z4 = stablehlo.add %y4, %t4 : tensor<8x4xi4>
    %s4 = stablehlo.slice %z4 [0:1, 0:1] : (tensor<8x4xi4>) -> tensor<1x1xi4>
    %r4 = stablehlo.reshape %s4 : (tensor<1x1xi4>) -> tensor<i4>
    %b4 = stablehlo.broadcast_in_dim %r4, dims = [] : (tensor<i4>) -> tensor<8x4xi4>
    %w4 = stablehlo.add %b4, %arg9 : tensor<8x4xi4>
    %c5 = stablehlo.constant dense<3> : tensor<8x4xi8>
    %x5 = stablehlo.add %arg10, %c5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi8>
    %y5 = sdy.sharding_constraint %x5 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi8>
    %t5 = stablehlo.transpose %c5, dims = [0, 1] : (tensor<8x4xi8>) -> tensor<8x4xi8>
    %z5 = stablehlo.add %y5, %t5 : tensor<8x4xi8>
    %s5 = stablehlo.slice %z5 [0:1, 0:1] : (tensor<8x4xi8>) -> tensor<1x1xi8>
    %r5 = stablehlo.reshape %s5 : (tensor<1x1xi8>) -> tensor<i8>
    %b5 = stablehlo.broadcast_in_dim %r5, dims = [] : (tensor<i8>) -> tensor<8x4xi8>
    %w5 = stablehlo.add %b5, %arg11 : tensor<8x4xi8>
    %c6 = stablehlo.constant dense<3> : tensor<8x4xi16>
    %x6 = stablehlo.add %arg12, %c6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi16>
    %y6 = sdy.sharding_constraint %x6 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi16>
    %t6 = stablehlo.transpose %c6, dims = [0, 1] : (tensor<8x4xi16>) -> tensor<8x4xi16>
    %z6 = stablehlo.add %y6, %t6 : tensor<8x4xi16>
    %s6 = stablehlo.slice %z6 [0:1, 0:1] : (tensor<8x4xi16>) -> tensor<1x1xi16>
    %r6 = stablehlo.reshape %s6 : (tensor<1x1xi16>) -> tensor<i16>
    %b6 = stablehlo.broadcast_in_dim %r6, dims = [] : (tensor<i16>) -> tensor<8x4xi16>
    %w6 = stablehlo.add %b6, %arg13 : tensor<8x4xi16>
    %c7 = stablehlo.constant dense<3> : tensor<8x4xi32>
    %x7 = stablehlo.add %arg14, %c7 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi32>
    %y7 = sdy.sharding_constraint %x7 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi32>
    %t7 = stablehlo.transpose %c7, dims = [0, 1] : (tensor<8x4xi32>) -> tensor<8x4xi32>
    %z7 = stablehlo.add %y7, %t7 : tensor<8x4xi32>
    %s7 = stablehlo.slice %z7 [0:1, 0:1] : (tensor<8x4xi32>) -> tensor<1x1xi32>
    %r7 = stablehlo.reshape %s7 : (tensor<1x1xi32>) -> tensor<i32>
    %b7 = stablehlo.broadcast_in_dim %r7, dims = [] : (tensor<i32>) -> tensor<8x4xi32>
    %w7 = stablehlo.add %b7, %arg15 : tensor<8x4xi32>
    %c8 = stablehlo.constant dense<3> : tensor<8x4xi64>
    %x8 = stablehlo.add %arg16, %c8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xi64>
    %y8 = sdy.sharding_constraint %x8 <@mesh, [{}, {"b"}p0]> : tensor<8x4xi64>
    %t8 = stablehlo.transpose %c8, dims = [0, 1] : (tensor<8x4xi64>) -> tensor<8x4xi64>
    %z8 = stablehlo.add %y8, %t8 : tensor<8x4xi64>
    %s8 = stablehlo.slice %z8 [0:1, 0:1] : (tensor<8x4xi64>) -> tensor<1x1xi64>
    %r8 = stablehlo.reshape %s8 : (tensor<1x1xi64>) -> tensor<i64>
    %b8 = stablehlo.broadcast_in_dim %r8, dims = [] : (tensor<i64>) -> tensor<8x4xi64>
    %w8 = stablehlo.add %b8, %arg17 : tensor<8x4xi64>
    %c9 = stablehlo.constant dense<3> : tensor<8x4xui4>
    %x9 = stablehlo.add %arg18, %c9 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xui4>
    %y9 = sdy.sharding_constraint %x9 <@mesh, [{}, {"b"}p0]> : tensor<8x4xui4>
    %t9 = stablehlo.transpose %c9, dims = [0, 1] : (tensor<8x4xui4>) -> tensor<8x4xui4>
    %z9 = stablehlo.add %y9, %t9 : tensor<8x4xui4>
    %s9 = stablehlo.slice %z9 [0:1, 0:1] : (tensor<8x4xui4>) -> tensor<1x1xui4>
    %r9 = stablehlo.reshape %s9 : (tensor<1x1xui4>) -> tensor<ui4>
    %b9 = stablehlo.broadcast_in_dim %r9, dims = [] : (tensor<ui4>) -> tensor<8x4xui4>
    %w9 = stablehlo.add %b9, %arg19 : tensor<8x4xui4>
    %c10 = stablehlo.constant dense<3> : tensor<8x4xui8>
    %x10 = stablehlo.add %arg20, %c10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xui8>
    %y10 = sdy.sharding_constraint %x10 <@mesh, [{}, {"b"}p0]> : tensor<8x4xui8>
    %t10 = stablehlo.transpose %c10, dims = [0, 1] : (tensor<8x4xui8>) -> tensor<8x4xui8>
    %z10 = stablehlo.add %y10, %t10 : tensor<8x4xui8>
    %s10 = stablehlo.slice %z10 [0:1, 0:1] : (tensor<8x4xui8>) -> tensor<1x1xui8>
    %r10 = stablehlo.reshape %s10 : (tensor<1x1xui8>) -> tensor<ui8>
    %b10 = stablehlo.broadcast_in_dim %r10, dims = [] : (tensor<ui8>) -> tensor<8x4xui8>
    %w10 = stablehlo.add %b10, %arg21 : tensor<8x4xui8>
    %c11 = stablehlo.constant dense<3> : tensor<8x4xui32>
    %x11 = stablehlo.add %arg22, %c11 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xui32>
    %y11 = sdy.sharding_constraint %x11 <@mesh, [{}, {"b"}p0]> : tensor<8x4xui32>
    %t11 = stablehlo.transpose %c11, dims = [0, 1] : (tensor<8x4xui32>) -> tensor<8x4xui32>
    %z11 = stablehlo.add %y11, %t11 : tensor<8x4xui32>
    %s11 = stablehlo.slice %z11 [0:1, 0:1] : (tensor<8x4xui32>) -> tensor<1x1xui32>
    %r11 = stablehlo.reshape %s11 : (tensor<1x1xui32>) -> tensor<ui32>
    %b11 = stablehlo.broadcast_in_dim %r11, dims = [] : (tensor<ui32>) -> tensor<8x4xui32>
    %w11 = stablehlo.add %b11, %arg23 : tensor<8x4xui32>
    %c12 = stablehlo.constant dense<3> : tensor<8x4xui64>
    %x12 = stablehlo.add %arg24, %c12 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xui64>
    %y12 = sdy.sharding_constraint %x12 <@mesh, [{}, {"b"}p0]> : tensor<8x4xui64>
    %t12 = stablehlo.transpose %c12, dims = [0, 1] : (tensor<8x4xui64>) -> tensor<8x4xui64>
    %z12 = stablehlo.add %y12, %t12 : tensor<8x4xui64>
    %s12 = stablehlo.slice %z12 [0:1, 0:1] : (tensor<8x4xui64>) -> tensor<1x1xui64>
    %r12 = stablehlo.reshape %s12 : (tensor<1x1xui64>) -> tensor<ui64>
    %b12 = stablehlo.broadcast_in_dim %r12, dims = [] : (tensor<ui64>) -> tensor<8x4xui64>
    %w12 = stablehlo.add %b12, %arg25 : tensor<8x4xui64>
    %c13 = stablehlo.constant dense<1.0> : tensor<8x4xf8E4M3FN>
    %x13 = stablehlo.add %arg26, %c13 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf8E4M3FN>
    %y13 = sdy.sharding_constraint %x13 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf8E4M3FN>
    %t13 = stablehlo.transpose %c13, dims = [0, 1] : (tensor<8x4xf8E4M3FN>) -> tensor<8x4xf8E4M3FN>
    %z13 = stablehlo.add %y13, %t13 : tensor<8x4xf8E4M3FN>
    %s13 = stablehlo.slice %z13 [0:1, 0:1] : (tensor<8x4xf8E4M3FN>) -> tensor<1x1xf8E4M3FN>
    %r13 = stablehlo.reshape %s13 : (tensor<1x1xf8E4M3FN>) -> tensor<f8E4M3FN>
    %b13 = stablehlo.broadcast_in_dim %r13, dims = [] : (tensor<f8E4M3FN>) -> tensor<8x4xf8E4M3FN>
    %w13 = stablehlo.add %b13, %arg27 : tensor<8x4xf8E4M3FN>
    %c14 = stablehlo.constant dense<1.0> : tensor<8x4xf8E5M2>
    %x14 = stablehlo.add %arg28, %c14 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf8E5M2>
    %y14 = sdy.sharding_constraint %x14 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf8E5M2>
    %t14 = stablehlo.transpose %c14, dims = [0, 1] : (tensor<8x4xf8E5M2>) -> tensor<8x4xf8E5M2>
    %z14 = stablehlo.add %y14, %t14 : tensor<8x4xf8E5M2>
    %s14 = stablehlo.slice %z14 [0:1, 0:1] : (tensor<8x4xf8E5M2>) -> tensor<1x1xf8E5M2>
    %r14 = stablehlo.reshape %s14 : (tensor<1x1xf8E5M2>) -> tensor<f8E5M2>
    %b14 = stablehlo.broadcast_in_dim %r14, dims = [] : (tensor<f8E5M2>) -> tensor<8x4xf8E5M2>
    %w14 = stablehlo.add %b14, %arg29 : tensor<8x4xf8E5M2>
    %c15 = stablehlo.constant dense<1.0> : tensor<8x4xf8E4M3FNUZ>
    %x15 = stablehlo.add %arg30, %c15 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf8E4M3FNUZ>
    %y15 = sdy.sharding_constraint %x15 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf8E4M3FNUZ>
    %t15 = stablehlo.transpose %c15, dims = [0, 1] : (tensor<8x4xf8E4M3FNUZ>) -> tensor<8x4xf8E4M3FNUZ>
    %z15 = stablehlo.add %y15, %t15 : tensor<8x4xf8E4M3FNUZ>
    %s15 = stablehlo.slice %z15 [0:1, 0:1] : (tensor<8x4xf8E4M3FNUZ>) -> tensor<1x1xf8E4M3FNUZ>
    %r15 = stablehlo.reshape %s15 : (tensor<1x1xf8E4M3FNUZ>) -> tensor<f8E4M3FNUZ>
    %b15 = stablehlo.broadcast_in_dim %r15, dims = [] : (tensor<f8E4M3FNUZ>) -> tensor<8x4xf8E4M3FNUZ>
    %w15 = stablehlo.add %b15, %arg31 : tensor<8x4xf8E4M3FNUZ>
    %c16 = stablehlo.constant dense<1.0> : tensor<8x4xf8E5M2FNUZ>
    %x16 = stablehlo.add %arg32, %c16 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf8E5M2FNUZ>
    %y16 = sdy.sharding_constraint %x16 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf8E5M2FNUZ>
    %t16 = stablehlo.transpose %c16, dims = [0, 1] : (tensor<8x4xf8E5M2FNUZ>) -> tensor<8x4xf8E5M2FNUZ>
    %z16 = stablehlo.add %y16, %t16 : tensor<8x4xf8E5M2FNUZ>
    %s16 = stablehlo.slice %z16 [0:1, 0:1] : (tensor<8x4xf8E5M2FNUZ>) -> tensor<1x1xf8E5M2FNUZ>
    %r16 = stablehlo.reshape %s16 : (tensor<1x1xf8E5M2FNUZ>) -> tensor<f8E5M2FNUZ>
    %b16 = stablehlo.broadcast_in_dim %r16, dims = [] : (tensor<f8E5M2FNUZ>) -> tensor<8x4xf8E5M2FNUZ>
    %w16 = stablehlo.add %b16, %arg33 : tensor<8x4xf8E5M2FNUZ>
    %c17 = stablehlo.constant dense<1.0> : tensor<8x4xf8E4M3B11FNUZ>
    %x17 = stablehlo.add %arg34, %c17 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf8E4M3B11FNUZ>
    %y17 = sdy.sharding_constraint %x17 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf8E4M3B11FNUZ>
    %t17 = stablehlo.transpose %c17, dims = [0, 1] : (tensor<8x4xf8E4M3B11FNUZ>) -> tensor<8x4xf8E4M3B11FNUZ>
    %z17 = stablehlo.add %y17, %t17 : tensor<8x4xf8E4M3B11FNUZ>
    %s17 = stablehlo.slice %z17 [0:1, 0:1] : (tensor<8x4xf8E4M3B11FNUZ>) -> tensor<1x1xf8E4M3B11FNUZ>
    %r17 = stablehlo.reshape %s17 : (tensor<1x1xf8E4M3B11FNUZ>) -> tensor<f8E4M3B11FNUZ>
    %b17 = stablehlo.broadcast_in_dim %r17, dims = [] : (tensor<f8E4M3B11FNUZ>) -> tensor<8x4xf8E4M3B11FNUZ>
    %w17 = stablehlo.add %b17, %arg35 : tensor<8x4xf8E4M3B11FNUZ>
    %c18 = stablehlo.constant dense<1.0> : tensor<8x4xbf16>
    %x18 = stablehlo.add %arg36, %c18 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xbf16>
    %y18 = sdy.sharding_constraint %x18 <@mesh, [{}, {"b"}p0]> : tensor<8x4xbf16>
    %t18 = stablehlo.transpose %c18, dims = [0, 1] : (tensor<8x4xbf16>) -> tensor<8x4xbf16>
    %z18 = stablehlo.add %y18, %t18 : tensor<8x4xbf16>
    %s18 = stablehlo.slice %z18 [0:1, 0:1] : (tensor<8x4xbf16>) -> tensor<1x1xbf16>
    %r18 = stablehlo.reshape %s18 : (tensor<1x1xbf16>) -> tensor<bf16>
    %b18 = stablehlo.broadcast_in_dim %r18, dims = [] : (tensor<bf16>) -> tensor<8x4xbf16>
    %w18 = stablehlo.add %b18, %arg37 : tensor<8x4xbf16>
    %c19 = stablehlo.constant dense<1.0> : tensor<8x4xf16>
    %x19 = stablehlo.add %arg38, %c19 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf16>
    %y19 = sdy.sharding_constraint %x19 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf16>
    %t19 = stablehlo.transpose %c19, dims = [0, 1] : (tensor<8x4xf16>) -> tensor<8x4xf16>
    %z19 = stablehlo.add %y19, %t19 : tensor<8x4xf16>
    %s19 = stablehlo.slice %z19 [0:1, 0:1] : (tensor<8x4xf16>) -> tensor<1x1xf16>
    %r19 = stablehlo.reshape %s19 : (tensor<1x1xf16>) -> tensor<f16>
    %b19 = stablehlo.broadcast_in_dim %r19, dims = [] : (tensor<f16>) -> tensor<8x4xf16>
    %w19 = stablehlo.add %b19, %arg39 : tensor<8x4xf16>
    %c20 = stablehlo.constant dense<1.0> : tensor<8x4xf32>
    %x20 = stablehlo.add %arg40, %c20 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf32>
    %y20 = sdy.sharding_constraint %x20 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf32>
    %t20 = stablehlo.transpose %c20, dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %z20 = stablehlo.add %y20, %t20 : tensor<8x4xf32>
    %s20 = stablehlo.slice %z20 [0:1, 0:1] : (tensor<8x4xf32>) -> tensor<1x1xf32>
    %r20 = stablehlo.reshape %s20 : (tensor<1x1xf32>) -> tensor<f32>
    %b20 = stablehlo.broadcast_in_dim %r20, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %w20 = stablehlo.add %b20, %arg41 : tensor<8x4xf32>
    %c21 = stablehlo.constant dense<1.0> : tensor<8x4xf64>
    %x21 = stablehlo.add %arg42, %c21 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c"}]>]>} : tensor<8x4xf64>
    %y21 = sdy.sharding_constraint %x21 <@mesh, [{}, {"b"}p0]> : tensor<8x4xf64>
    %t21 = stablehlo.transpose %c21, dims = [0, 1] : (tensor<8x4xf64>) -> tensor<8x4xf64>
    %z21 = stablehlo.add %y21, %t21 : tensor<8x4xf64>
    %s21 = stablehlo.slice %z21 [0:1, 0:1] : (tensor<8x4xf64>) -> tensor<1x1xf64>
    %r21 = stablehlo.reshape %s21 : (tensor<1x1xf64>) -> tensor<f64>
    %b21 = stablehlo.broadcast_in_dim %r21, dims = [] : (tensor<f64>) -> tensor<8x4xf64>
    %w21 = stablehlo.add %b21, %arg43 : tensor<8x4xf64>
    return %z0, %w0, %z1, %w1, %z2, %w2, %z3, %w3, %z4, %w4, %z5, %w5, %z6, %w6, %z7, %w7, %z8, %w8, %z9, %w9, %z10, %w10, %z11, %w11, %z12, %w12, %z13, %w13, %z14, %w14, %z15, %w15, %z16, %w16, %z17, %w17, %z18, %w18, %z19, %w19, %z20, %w20, %z21, %w21 : tensor<8x4xcomplex<f32>>, tensor<8x4xcomplex<f32>>, tensor<8x4xcomplex<f64>>, tensor<8x4xcomplex<f64>>, tensor<8x4xi1>, tensor<8x4xi1>, tensor<8x4xi2>, tensor<8x4xi2>, tensor<8x4xi4>, tensor<8x4xi4>, tensor<8x4xi8>, tensor<8x4xi8>, tensor<8x4xi16>, tensor<8x4xi16>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi64>, tensor<8x4xi64>, tensor<8x4xui4>, tensor<8x4xui4>, tensor<8x4xui8>, tensor<8x4xui8>, tensor<8x4xui32>, tensor<8x4xui32>, tensor<8x4xui64>, tensor<8x4xui64>, tensor<8x4xf8E4M3FN>, tensor<8x4xf8E4M3FN>, tensor<8x4xf8E5M2>, tensor<8x4xf8E5M2>, tensor<8x4xf8E4M3FNUZ>, tensor<8x4xf8E4M3FNUZ>, tensor<8x4xf8E5M2FNUZ>, tensor<8x4xf8E5M2FNUZ>, tensor<8x4xf8E4M3B11FNUZ>, tensor<8x4xf8E4M3B11FNUZ>, tensor<8x4xbf16>, tensor<8x4xbf16>, tensor<8x4xf16>, tensor<8x4xf16>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf64>, tensor<8x4xf64>
  }
}
