// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | filecheck %s

// The full version all-reduces a reduction factor sharded on an axis of size
// one (issue 24: the axis-set difference lost size-one axes).
sdy.mesh @mesh = <["k"=2, "l"=1]>

// CHECK-LABEL: func @reduce_over_size_one_axis
// CHECK:       %[[R:.*]] = stablehlo.reduce(%arg0 init: %cst)
// CHECK-NEXT:  %[[AR:.*]] = sdy.all_reduce {"l"} %[[R]] out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT:  return %[[AR]]
func.func @reduce_over_size_one_axis(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"l"}, {}]>}) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
