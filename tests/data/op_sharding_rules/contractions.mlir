// dot, dot_general and convolution.
func.func @dots(%v: tensor<32xf32>, %m: tensor<32x16xf32>, %l: tensor<8x32xf32>) {
  %0 = stablehlo.dot %v, %v : (tensor<32xf32>, tensor<32xf32>) -> tensor<f32>
  %1 = stablehlo.dot %v, %m : (tensor<32xf32>, tensor<32x16xf32>) -> tensor<16xf32>
  %2 = stablehlo.dot %l, %v : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8xf32>
  %3 = stablehlo.dot %l, %m : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return
}

func.func @dot_generals(%a: tensor<4x8x32xf32>, %b: tensor<4x32x16xf32>, %c: tensor<8x32xf32>, %d: tensor<32x16xf32>,
                        %e: tensor<2x4x8x6xf32>, %f: tensor<4x6x2x3xf32>, %g: tensor<8xf32>, %h: tensor<1x8x1xf32>, %k: tensor<1x8x5xf32>,
                        %q: tensor<2x128x12x64xf32>, %r: tensor<2x128x12x64xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.dot_general %d, %c, contracting_dims = [0] x [1] : (tensor<32x16xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
  %3 = stablehlo.dot_general %e, %f, batching_dims = [0, 1] x [2, 0], contracting_dims = [3] x [1] : (tensor<2x4x8x6xf32>, tensor<4x6x2x3xf32>) -> tensor<2x4x8x3xf32>
  %4 = stablehlo.dot_general %g, %g, contracting_dims = [] x [] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  %5 = stablehlo.dot_general %c, %c, contracting_dims = [0, 1] x [0, 1] : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<f32>
  %6 = stablehlo.dot_general %h, %k, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<1x8x1xf32>, tensor<1x8x5xf32>) -> tensor<1x1x5xf32>
  %7 = stablehlo.dot_general %q, %r, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<2x128x12x64xf32>, tensor<2x128x12x64xf32>) -> tensor<2x12x128x128xf32>
  %8 = stablehlo.dot_general %g, %g, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

func.func @convolutions(%x: tensor<2x224x224x192xf32>, %w: tensor<3x3x192x64xf32>, %big: tensor<112x112x192x64xf32>,
                        %xb: tensor<8x224x224x192xf32>, %wb: tensor<3x3x192x256xf32>, %wf: tensor<3x3x12x256xf32>,
                        %x1: tensor<4x3x32xf32>, %w1: tensor<5x3x8xf32>, %xn: tensor<1x16x16x1xf32>, %wn: tensor<1x1x1x1xf32>,
                        %xc: tensor<2x3x28x28xf32>, %wc: tensor<16x3x5x5xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32>
  %1 = stablehlo.convolution(%x, %big) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x224x224x192xf32>, tensor<112x112x192x64xf32>) -> tensor<2x57x57x64xf32>
  %2 = stablehlo.convolution(%xb, %wb) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<8x224x224x192xf32>, tensor<3x3x192x256xf32>) -> tensor<2x112x112x256xf32>
  %3 = stablehlo.convolution(%xb, %wf) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<8x224x224x192xf32>, tensor<3x3x12x256xf32>) -> tensor<8x112x112x256xf32>
  %4 = stablehlo.convolution(%x1, %w1) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[2, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x3x32xf32>, tensor<5x3x8xf32>) -> tensor<4x5x29xf32>
  %5 = stablehlo.convolution(%xn, %wn) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x16x16x1xf32>
  %6 = stablehlo.convolution(%xc, %wc) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x28x28xf32>, tensor<16x3x5x5xf32>) -> tensor<2x16x20x20xf32>
  %7 = stablehlo.convolution(%xc, %wc) dim_numbers = [b, f, 1, 0]x[o, i, 1, 0]->[f, b, 0, 1], window = {stride = [3, 1], pad = [[1, 1], [2, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x28x28xf32>, tensor<16x3x5x5xf32>) -> tensor<16x2x9x28xf32>
  return
}
func.func @convolutions_size_one_features(%xn: tensor<2x16x16x3xf32>, %wn: tensor<3x3x3x1xf32>, %x2: tensor<1x16x16x1xf32>, %w2: tensor<1x1x1x4xf32>, %xg: tensor<2x8x8x4xf32>, %wg: tensor<3x3x1x4xf32>, %xb: tensor<4x8x8x1xf32>, %wb: tensor<3x3x1x4xf32>) {
  %0 = stablehlo.convolution(%xn, %wn) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x3xf32>, tensor<3x3x3x1xf32>) -> tensor<2x14x14x1xf32>
  %1 = stablehlo.convolution(%x2, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x1xf32>, tensor<1x1x1x4xf32>) -> tensor<1x16x16x4xf32>
  %2 = stablehlo.convolution(%xg, %wg) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<2x6x6x4xf32>
  %3 = stablehlo.convolution(%xb, %wb) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<4x8x8x1xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
  return
}
func.func @convolutions_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x1x8xf32>, %x3: tensor<2x8x8x8xf32>, %w3: tensor<3x3x2x4xf32>, %xb: tensor<8x8x8x3xf32>, %wb: tensor<3x3x3x8xf32>, %x1: tensor<1x8x8x1xf32>, %w1: tensor<3x3x1x1xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x1x8xf32>) -> tensor<2x6x6x8xf32>
  %1 = stablehlo.convolution(%x3, %w3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x2x4xf32>) -> tensor<2x6x6x4xf32>
  %2 = stablehlo.convolution(%xb, %wb) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<8x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x6x6x8xf32>
  %3 = stablehlo.convolution(%x1, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x8x8x1xf32>
  return
}
