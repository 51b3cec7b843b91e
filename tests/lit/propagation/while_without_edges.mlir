// RUN: sdy-dsl opt %s -sdy-basic-propagate -split-input-file | filecheck %s
// RUN: sdy-dsl opt %s -sdy-user-priority-propagate -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2]>

// Without data-flow edges, a while body argument stands for the while result
// (Shardy's getShardableValue): the negate's sharding reaches the result, and
// from it the function result.
// CHECK-LABEL: func @body_argument_stands_for_the_result
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK:       stablehlo.while{{.*}} attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>, <@mesh, []>]>}
func.func @body_argument_stands_for_the_result(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<4> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
    stablehlo.return %1, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// A reduce body's arguments have nowhere to keep a sharding: propagation
// leaves them alone (and the reduce's rule still relates its operands and
// results).
// CHECK-LABEL: func @reduce_body_arguments_are_unshardable
// CHECK:       stablehlo.reduce{{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>
func.func @reduce_body_arguments_are_unshardable(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %1 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }
  return %0 : tensor<8xf32>
}
