// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards='enable-full-version=true' -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A factor that is not the first of its dimension is only a candidate once
// the factors before it are fully sharded: (j, "x") would win on the factor
// index, but j follows i in the result's dimension, so (i, "x") goes first and
// then "x" is taken.
// CHECK-LABEL: func @factor_dependency(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<32xf32>
// CHECK-NEXT: return %2 : tensor<32xf32>
func.func @factor_dependency(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<32xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4x8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=8]>

// A sub-axis prefix counts for the source size: "x":(1)2 is a prefix of the
// result's "x", so it is backed by two tensors and beats the larger "y" of
// one tensor; "x" then extends it.
// CHECK-LABEL: func @sub_axis_prefix_counts(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
func.func @sub_axis_prefix_counts(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// On equal source sizes a pass-through factor wins over a reduction factor
// ("x" goes to the lhs's non-contracting dimension, not the contracting one).
// CHECK-LABEL: func @precedence_pass_through_over_reduction(
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @precedence_pass_through_over_reduction(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2, "w"=4]>

// After a pick, every candidate of another factor that does not overlap it
// gets its full sharding size back (the reference's quirk), even one whose
// size had been reduced to what it adds to its factor's assignment. Here
// that decides the batching factor's axes: keeping the reduced size would
// give [{"y"}, {"w"}, {"x"}] on the result.
// CHECK-LABEL: func @sharding_size_reset(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y", "x"}, {"w"}, {}]> : tensor<4x16x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"y", "x"}, {}, {}]> : tensor<4x16x16xf32>
// CHECK-NEXT: %2 = stablehlo.dot_general %0, %1, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}, {"w"}, {}]>]>} : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}, {}]> : tensor<4x16x16xf32>
// CHECK-NEXT: return %3 : tensor<4x16x16xf32>
func.func @sharding_size_reset(%arg0: tensor<4x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}, {"x"}]>}, %arg1: tensor<4x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "w"}, {}, {"x"}]>}) -> tensor<4x16x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}, {"w"}, {}]>]>} : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  return %0 : tensor<4x16x16xf32>
}
