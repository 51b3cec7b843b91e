// RUN: sdy-dsl opt %s -sdy-sharding-group-import -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

// A group with a value outside and a value inside a manual computation body.
func.func @group_crosses_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id = 3 : tensor<8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    // expected-error @+1 {{ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: 3}}
    sdy.sharding_group %arg1 group_id = 3 : tensor<4xf32>
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// Two different manual computation bodies count as a crossing too.
func.func @group_in_two_manual_computations(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.sharding_group %arg1 group_id = 0 : tensor<4xf32>
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    // expected-error @+1 {{ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: 0}}
    sdy.sharding_group %arg1 group_id = 0 : tensor<4xf32>
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// All values of a group must have the same shape.
func.func @group_with_different_shapes(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) {
  sdy.sharding_group %arg0 group_id = 3 : tensor<8xf32>
  // expected-error @+1 {{ShardingGroupOps values must have the same shape for groupId: 3}}
  sdy.sharding_group %arg1 group_id = 3 : tensor<4xf32>
  return
}

// -----

// Validation stops at the first error: the second bad group is not reported.
func.func @first_error_only(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>, %arg2: tensor<2xf32>) {
  sdy.sharding_group %arg0 group_id = 1 : tensor<8xf32>
  // expected-error @+1 {{ShardingGroupOps values must have the same shape for groupId: 1}}
  sdy.sharding_group %arg1 group_id = 1 : tensor<4xf32>
  sdy.sharding_group %arg0 group_id = 2 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id = 2 : tensor<2xf32>
  return
}
