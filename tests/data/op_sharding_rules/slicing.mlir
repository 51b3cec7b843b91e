// slice, pad, dynamic_slice and dynamic_update_slice (sliced, unsliced and size-1 dims).
func.func @slices(%a: tensor<8x16x1xf32>, %b: tensor<32xf32>, %s: tensor<f32>) {
  %0 = stablehlo.slice %a [0:4, 0:16, 0:1] : (tensor<8x16x1xf32>) -> tensor<4x16x1xf32>
  %1 = stablehlo.slice %a [0:8, 2:10:2, 0:1] : (tensor<8x16x1xf32>) -> tensor<8x4x1xf32>
  %2 = stablehlo.slice %a [0:8, 0:16, 0:1] : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %3 = stablehlo.slice %a [1:2, 3:4, 0:1] : (tensor<8x16x1xf32>) -> tensor<1x1x1xf32>
  %4 = stablehlo.slice %b [1:31] : (tensor<32xf32>) -> tensor<30xf32>
  %5 = stablehlo.slice %a [0:0, 0:16, 0:1] : (tensor<8x16x1xf32>) -> tensor<0x16x1xf32>
  return
}

func.func @pads(%a: tensor<8x16xf32>, %s: tensor<f32>, %b: tensor<1x5xf32>) {
  %0 = stablehlo.pad %a, %s, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x19xf32>
  %1 = stablehlo.pad %a, %s, low = [2, 0], high = [2, 0], interior = [1, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<19x16xf32>
  %2 = stablehlo.pad %a, %s, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %3 = stablehlo.pad %a, %s, low = [-1, 0], high = [-1, 0], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<6x16xf32>
  %4 = stablehlo.pad %b, %s, low = [3, 0], high = [0, 0], interior = [0, 0] : (tensor<1x5xf32>, tensor<f32>) -> tensor<4x5xf32>
  %5 = stablehlo.pad %a, %s, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<10x18xf32>
  return
}

func.func @dynamic_slices(%a: tensor<8x16x1xf32>, %i: tensor<i32>, %u: tensor<4x16x1xf32>, %v: tensor<1x2x1xf32>, %w: tensor<8x16x1xf32>, %c: tensor<32x4xf32>, %r: tensor<1x4xf32>) {
  %0 = stablehlo.dynamic_slice %a, %i, %i, %i, sizes = [4, 16, 1] : (tensor<8x16x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x1xf32>
  %1 = stablehlo.dynamic_slice %a, %i, %i, %i, sizes = [8, 2, 1] : (tensor<8x16x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x2x1xf32>
  %2 = stablehlo.dynamic_slice %a, %i, %i, %i, sizes = [8, 16, 1] : (tensor<8x16x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x16x1xf32>
  %3 = stablehlo.dynamic_slice %a, %i, %i, %i, sizes = [1, 1, 1] : (tensor<8x16x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x1xf32>
  %4 = stablehlo.dynamic_update_slice %a, %u, %i, %i, %i : (tensor<8x16x1xf32>, tensor<4x16x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x16x1xf32>
  %5 = stablehlo.dynamic_update_slice %a, %v, %i, %i, %i : (tensor<8x16x1xf32>, tensor<1x2x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x16x1xf32>
  %6 = stablehlo.dynamic_update_slice %a, %w, %i, %i, %i : (tensor<8x16x1xf32>, tensor<8x16x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x16x1xf32>
  %7 = stablehlo.dynamic_update_slice %c, %r, %i, %i : (tensor<32x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<32x4xf32>
  %8 = stablehlo.dynamic_slice %c, %i, %i, sizes = [1, 4] : (tensor<32x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  return
}
func.func @pads_same_size(%a: tensor<8x16xf32>, %s: tensor<f32>) {
  %0 = stablehlo.pad %a, %s, low = [1, 0], high = [-1, 0], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %1 = stablehlo.pad %a, %s, low = [-2, 0], high = [-5, 0], interior = [1, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}
