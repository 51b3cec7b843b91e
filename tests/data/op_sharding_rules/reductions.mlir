// reduce (one or several inputs), reduce_window, select_and_scatter, sort and batch_norm_inference.
func.func @reduces(%a: tensor<8x16x4xf32>, %b: tensor<8x16x4xi32>, %z: tensor<f32>, %zi: tensor<i32>, %o: tensor<1x8xf32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %1 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<8x16x4xf32>, tensor<f32>) -> tensor<16xf32>
  %2 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x16x4xf32>, tensor<f32>) -> tensor<f32>
  %3 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [] : (tensor<8x16x4xf32>, tensor<f32>) -> tensor<8x16x4xf32>
  %4 = stablehlo.reduce(%o init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1x8xf32>, tensor<f32>) -> tensor<8xf32>
  %5:2 = stablehlo.reduce(%a init: %z), (%b init: %zi) across dimensions = [2] : (tensor<8x16x4xf32>, tensor<8x16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%xi: tensor<i32>, %yi: tensor<i32>) {
      %m = stablehlo.maximum %x, %y : tensor<f32>
      %mi = stablehlo.maximum %xi, %yi : tensor<i32>
      stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
    }
  return
}

func.func @reduce_windows(%a: tensor<8x16x4xf32>, %z: tensor<f32>, %b: tensor<8x16x4xi32>, %zi: tensor<i32>) {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 1>, window_strides = array<i64: 1, 2, 1>} : (tensor<8x16x4xf32>, tensor<f32>) -> tensor<8x7x4xf32>
  %1 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 16, 1>, window_strides = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [15, 0], [0, 0]]> : tensor<3x2xi64>} : (tensor<8x16x4xf32>, tensor<f32>) -> tensor<8x16x4xf32>
  %2:2 = "stablehlo.reduce_window"(%a, %b, %z, %zi) ({
    ^bb0(%x: tensor<f32>, %xi: tensor<i32>, %y: tensor<f32>, %yi: tensor<i32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      %si = stablehlo.add %xi, %yi : tensor<i32>
      stablehlo.return %s, %si : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2, 2, 1>, window_strides = array<i64: 2, 2, 1>} : (tensor<8x16x4xf32>, tensor<8x16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x8x4xf32>, tensor<4x8x4xi32>)
  return
}

func.func @select_and_scatters(%a: tensor<8x16xf32>, %src: tensor<4x8xf32>, %z: tensor<f32>, %same: tensor<8x16xf32>) {
  %0 = "stablehlo.select_and_scatter"(%a, %src, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<f32>) -> tensor<8x16xf32>
  %1 = "stablehlo.select_and_scatter"(%a, %same, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}

func.func @sorts(%a: tensor<8x16xf32>, %i: tensor<8x16xi32>, %v: tensor<32xf32>, %o: tensor<1x16x1xf32>, %p: tensor<4x1x16xf32>) {
  %0 = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1:2 = "stablehlo.sort"(%a, %i) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>, %xi: tensor<i32>, %yi: tensor<i32>):
      %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
  %2 = "stablehlo.sort"(%v) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<32xf32>) -> tensor<32xf32>
  %3 = "stablehlo.sort"(%o) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  %4 = "stablehlo.sort"(%p) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 2 : i64} : (tensor<4x1x16xf32>) -> tensor<4x1x16xf32>
  %5 = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

func.func @batch_norms(%x: tensor<2x3x4x1xf32>, %s1: tensor<1xf32>, %s4: tensor<4xf32>, %y: tensor<2x1x4xf32>, %z: tensor<8x16xf32>, %s16: tensor<16xf32>, %s8: tensor<8xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %s1, %s1, %s1, %s1) {epsilon = 1.0e-5 : f32, feature_index = 3 : i64} : (tensor<2x3x4x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4x1xf32>
  %1 = "stablehlo.batch_norm_inference"(%x, %s4, %s4, %s4, %s4) {epsilon = 1.0e-5 : f32, feature_index = 2 : i64} : (tensor<2x3x4x1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4x1xf32>
  %2 = "stablehlo.batch_norm_inference"(%y, %s1, %s1, %s1, %s1) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x1x4xf32>
  %3 = "stablehlo.batch_norm_inference"(%z, %s16, %s16, %s16, %s16) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %4 = "stablehlo.batch_norm_inference"(%z, %s8, %s8, %s8, %s8) {epsilon = 1.0e-5 : f32, feature_index = 0 : i64} : (tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x16xf32>
  %5:3 = "stablehlo.batch_norm_training"(%z, %s16, %s16) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  %6:3 = "stablehlo.batch_norm_grad"(%z, %s16, %s16, %s16, %z) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}
func.func @windows_padding_strides_dilations(%a: tensor<8x16xf32>, %z: tensor<f32>, %src: tensor<8x16xf32>, %src2: tensor<8x8xf32>) {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x18xf32>
  %1 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 2, 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %2 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %3 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, base_dilations = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x31xf32>
  %4 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>, window_dilations = array<i64: 2, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %5 = "stablehlo.select_and_scatter"(%a, %src, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %6 = "stablehlo.select_and_scatter"(%a, %src2, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x16xf32>
  %7 = "stablehlo.select_and_scatter"(%a, %src, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}
func.func @windows_dilation_negative_padding(%a: tensor<8x16xf32>, %z: tensor<f32>, %src: tensor<8x16xf32>) {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, window_dilations = array<i64: 2, 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %1 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 0], [-1, -1]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x14xf32>
  %2 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>, base_dilations = array<i64: 1, 2>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x32xf32>
  %5 = "stablehlo.select_and_scatter"(%a, %src, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 0], [1, -1]]> : tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return
}
