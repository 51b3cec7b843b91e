// broadcast_in_dim, transpose, bitcast_convert, reverse and concatenate.
func.func @broadcasts(%a: tensor<2x13x1xf32>, %s: tensor<f32>, %b: tensor<2x1x13xf32>, %c: tensor<1xf32>, %d: tensor<4x1xf32>, %z: tensor<2x13x0xf32>, %e: tensor<8xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2, 3] : (tensor<2x13x1xf32>) -> tensor<2x64x13x1xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x1x13xf32>
  %2 = stablehlo.broadcast_in_dim %b, dims = [0, 1, 2] : (tensor<2x1x13xf32>) -> tensor<2x64x13xf32>
  %3 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<1xf32>) -> tensor<4x8xf32>
  %4 = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<1xf32>) -> tensor<1x8xf32>
  %5 = stablehlo.broadcast_in_dim %d, dims = [2, 0] : (tensor<4x1xf32>) -> tensor<16x3x4xf32>
  %6 = stablehlo.broadcast_in_dim %z, dims = [0, 2, 3] : (tensor<2x13x0xf32>) -> tensor<2x64x13x0xf32>
  %7 = stablehlo.broadcast_in_dim %e, dims = [1] : (tensor<8xf32>) -> tensor<4x8x16xf32>
  %8 = stablehlo.broadcast_in_dim %e, dims = [0] : (tensor<8xf32>) -> tensor<8xf32>
  %9 = stablehlo.broadcast_in_dim %a, dims = [2, 1, 0] : (tensor<2x13x1xf32>) -> tensor<5x13x2xf32>
  %10 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<f32>
  return
}

func.func @transposes(%a: tensor<2x3x5xf32>, %b: tensor<8x1xf32>, %c: tensor<7xf32>, %d: tensor<1x2x3x4x5xf32>) {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x3x5xf32>) -> tensor<5x2x3xf32>
  %1 = stablehlo.transpose %a, dims = [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %2 = stablehlo.transpose %a, dims = [1, 2, 0] : (tensor<2x3x5xf32>) -> tensor<3x5x2xf32>
  %3 = stablehlo.transpose %b, dims = [1, 0] : (tensor<8x1xf32>) -> tensor<1x8xf32>
  %4 = stablehlo.transpose %c, dims = [0] : (tensor<7xf32>) -> tensor<7xf32>
  %5 = stablehlo.transpose %d, dims = [4, 2, 0, 3, 1] : (tensor<1x2x3x4x5xf32>) -> tensor<5x3x1x4x2xf32>
  return
}

func.func @bitcasts(%a: tensor<4x2x2xui32>, %b: tensor<4x2xui64>, %c: tensor<8x4xf32>, %d: tensor<3xf16>, %e: tensor<f32>, %f: tensor<2xi8>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<4x2x2xui32>) -> tensor<4x2xui64>
  %1 = stablehlo.bitcast_convert %b : (tensor<4x2xui64>) -> tensor<4x2x2xui32>
  %2 = stablehlo.bitcast_convert %c : (tensor<8x4xf32>) -> tensor<8x4xi32>
  %3 = stablehlo.bitcast_convert %c : (tensor<8x4xf32>) -> tensor<8x4x4xi8>
  %4 = stablehlo.bitcast_convert %d : (tensor<3xf16>) -> tensor<3x2xi8>
  %5 = stablehlo.bitcast_convert %e : (tensor<f32>) -> tensor<4xi8>
  %6 = stablehlo.bitcast_convert %f : (tensor<2xi8>) -> tensor<i16>
  return
}

func.func @reverses(%a: tensor<2x1x4xf32>, %b: tensor<8xf32>) {
  %0 = stablehlo.reverse %a, dims = [0, 2] : tensor<2x1x4xf32>
  %1 = stablehlo.reverse %a, dims = [1] : tensor<2x1x4xf32>
  %2 = stablehlo.reverse %a, dims = [] : tensor<2x1x4xf32>
  %3 = stablehlo.reverse %b, dims = [0] : tensor<8xf32>
  return
}

func.func @concatenates(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<4x1x256xf32>, %d: tensor<4x3x256xf32>, %e: tensor<4x5x256xf32>, %v: tensor<3xf32>, %w: tensor<5xf32>) {
  %s0 = stablehlo.slice %a [0:8, 0:4] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  %s1 = stablehlo.slice %a [0:8, 4:16] : (tensor<8x16xf32>) -> tensor<8x12xf32>
  %t0 = stablehlo.slice %b [0:8, 0:4] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  %0 = stablehlo.concatenate %s0, %s1, dim = 1 : (tensor<8x4xf32>, tensor<8x12xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.concatenate %s0, %t0, dim = 1 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.concatenate %s0, %a, %s1, dim = 1 : (tensor<8x4xf32>, tensor<8x16xf32>, tensor<8x12xf32>) -> tensor<8x32xf32>
  %3 = stablehlo.concatenate %s0, %b, dim = 1 : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<8x20xf32>
  %4 = stablehlo.concatenate %a, %s0, dim = 1 : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<8x20xf32>
  %5 = stablehlo.concatenate %a, dim = 1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %6 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %n = stablehlo.negate %a : tensor<8x16xf32>
  %7 = stablehlo.concatenate %n, %n, dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %8 = stablehlo.concatenate %s0, %s0, dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %9 = stablehlo.concatenate %s0, %t0, %a, dim = 1 : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<8x24xf32>
  %10 = stablehlo.concatenate %c, %c, %c, dim = 1 : (tensor<4x1x256xf32>, tensor<4x1x256xf32>, tensor<4x1x256xf32>) -> tensor<4x3x256xf32>
  %11 = stablehlo.concatenate %d, %e, dim = 1 : (tensor<4x3x256xf32>, tensor<4x5x256xf32>) -> tensor<4x8x256xf32>
  %12 = stablehlo.concatenate %v, %w, dim = 0 : (tensor<3xf32>, tensor<5xf32>) -> tensor<8xf32>
  return
}
