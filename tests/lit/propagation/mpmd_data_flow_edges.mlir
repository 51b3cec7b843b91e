// RUN: sdy-dsl opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate -sdy-sink-data-flow-edges | filecheck %s

// MPMD's data-flow ops are declared in rules/interfaces.yaml, and mesh tensor
// types are shaped types for propagation.

// A fragment's body arguments own edges (sharding kept in `in_shardings`), so
// the body takes the argument sharding, and the result edge takes the body's
// (kept in `out_shardings`), then the function result.
// CHECK-LABEL: func @fragment_body_takes_its_argument_sharding
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<8x16xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK:       mpmd.fragment<mesh="m1", origin=[], in_shardings=[<@mesh, [{"a"}, {}]>], out_shardings=[<@mesh, [{"a", ?}, {?}]>]>
// CHECK-NEXT:    stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @fragment_body_takes_its_argument_sharding(%arg0: !mpmd.mesh_tensor<"m1", tensor<8x16xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
    -> !mpmd.mesh_tensor<"m1", tensor<8x16xf32>> attributes {topology = #mpmd.topology<<"m1": <["a"=2, "b"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=[], in_shardings=[<@mesh, [{"a"}, {}]>]> (%arg0) (%arg1: tensor<8x16xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x16xf32>
    mpmd.return %1 : tensor<8x16xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<8x16xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<8x16xf32>>
  return %0 : !mpmd.mesh_tensor<"m1", tensor<8x16xf32>>
}

// -----

// A for loop's results own edges; body argument i belongs to result i's
// edge, so the loop-carried %arg3 and %arg1 meet %arg0's sharding.
// CHECK-LABEL: func @for_loop_carries_its_result_sharding
// CHECK-SAME:    %arg1: tensor<8xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>}
// CHECK:       mpmd.for (%arg0, %arg1) {iterations = 4 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>, <@mesh, [{"b", ?}]>]>, unroll_factor = 1 : ui32}
// CHECK-NEXT:    stablehlo.add %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>}
sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @for_loop_carries_its_result_sharding(%arg0: tensor<8xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}, %arg1: tensor<8xui32>)
    -> (tensor<8xui32>, tensor<8xui32>) attributes {topology = #mpmd.topology<<"m1": <["a"=2, "b"=2]>>>} {
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 4 : ui32, unroll_factor = 1 : ui32}
      (%arg2: tensor<8xui32>, %arg3: tensor<8xui32>, %index: tensor<ui32>) {
    %1 = stablehlo.add %arg2, %arg3 : tensor<8xui32>
    mpmd.return %1, %arg3 : tensor<8xui32>, tensor<8xui32>
  } : tensor<8xui32>, tensor<8xui32>
  return %0#0, %0#1 : tensor<8xui32>, tensor<8xui32>
}
