// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards='enable-full-version=true' -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// Meshes that differ only in device order: the op uses the most common one
// among its sharded tensors; sharded tensors on the other are resharded.
// CHECK-LABEL: func @majority_mesh(
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh_rev, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh_rev, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @majority_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// Replicated tensors do not count, and are not resharded to the op's mesh.
// CHECK-LABEL: func @replicated_do_not_count(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh_rev, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @replicated_do_not_count(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @other = <["a"=8]>

// Different meshes: the op is left alone.
// CHECK-LABEL: func @different_meshes_skipped(
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
func.func @different_meshes_skipped(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// A maximal mesh: the op is left alone.
// CHECK-LABEL: func @maximal_mesh_skipped(
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
func.func @maximal_mesh_skipped(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
