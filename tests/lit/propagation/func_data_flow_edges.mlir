// RUN: sdy-dsl opt %s -sdy-basic-propagate -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A func argument's edge joins that operand of every call, and a call
// result's edge the callee's returned value: the caller's argument sharding
// reaches the callee's body, and from it the second call's result.
// CHECK-LABEL: func private @scale(
// CHECK-NEXT:    %[[EDGE:.*]] = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// CHECK-NEXT:    stablehlo.multiply %[[EDGE]], %[[EDGE]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func private @scale(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<4x8xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// Both calls' operands meet at the argument edge: %arg1 takes it too.
// CHECK-LABEL: func @main(
// CHECK-SAME:    %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}
// CHECK:         %[[E1:.*]] = sdy.func_data_flow_edge %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// CHECK:         %[[E2:.*]] = sdy.func_data_flow_edge %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// CHECK-NEXT:    stablehlo.add %[[E1]], %[[E2]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = call @scale(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<4x8xf32>
  %2 = call @scale(%arg1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = sdy.func_data_flow_edge %2 : tensor<4x8xf32>
  %4 = stablehlo.add %1, %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}
