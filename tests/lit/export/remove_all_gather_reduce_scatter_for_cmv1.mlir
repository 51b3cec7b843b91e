// RUN: sdy-dsl opt %s -sdy-remove-all-gather-reduce-scatter-for-cmv1 | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// An all-gather feeding only a dot goes; the dot reads the sharded operand.
// CHECK-LABEL: func @gather_into_dot
func.func @gather_into_dot(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                           %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x32xf32> {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1
  // CHECK-NEXT: return %[[D]]
  %0 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<16x32xf32>
  %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// A reduce-scatter that is a dot's only user goes; the dot takes its sharding.
// CHECK-LABEL: func @dot_into_reduce_scatter
func.func @dot_into_reduce_scatter(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                                   %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x32xf32> {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
  // CHECK-NEXT: return %[[D]]
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = sdy.reduce_scatter [{"y"}, {}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// With an all-gathered operand the dot keeps its reduce-scatter; an
// all-gather with another user stays.
// CHECK-LABEL: func @both
func.func @both(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x32xf32>, tensor<16x32xf32>) {
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {}] %arg1
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot %arg0, %[[G]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  // CHECK-NEXT: %[[D2:.*]] = stablehlo.dot %arg0, %arg1
  // CHECK-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"x"}, {}] %[[D2]]
  // CHECK-NEXT: return %[[RS]], %[[G]]
  %0 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x32xf32>
  %1 = stablehlo.dot %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  %3 = stablehlo.dot %2, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %4 = sdy.reduce_scatter [{"x"}, {}] %3 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x32xf32>
  return %4, %0 : tensor<8x32xf32>, tensor<16x32xf32>
}
