// RUN: sdy-dsl opt %s -sdy-basic-propagate -split-input-file -verify-diagnostics
// RUN: sdy-dsl opt %s -sdy-basic-propagate -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Ops and custom_call targets without a rule: propagation does not cross
// them, and the first of each kind (op, custom call) in a run gets Shardy's
// warning.
// CHECK-LABEL: func @unknown_ops_are_warned_about_once
// CHECK:       stablehlo.custom_call @my_kernel(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NOT:   sdy.sharding_per_value
func.func @unknown_ops_are_warned_about_once(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  // expected-warning@+1 {{custom call @my_kernel is unknown to SDY sharding rule registry}}
  %0 = stablehlo.custom_call @my_kernel(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.custom_call @my_other_kernel(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Two members of a sharding group start with different shardings: each gets
// an open sharding constraint, and the group's first member's op (here the
// function) a warning.
// CHECK-LABEL: func @conflicting_sharding_group
// CHECK-NEXT:  %[[C0:.*]] = sdy.sharding_constraint %arg1 <@mesh, [{?}, {"b", ?}]>
// CHECK-NEXT:  %[[C1:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"b", ?}]>
// CHECK-NEXT:  sdy.sharding_group %[[C1]] group_id=3
// CHECK-NEXT:  sdy.sharding_group %[[C0]] group_id=3
// expected-warning@+1 {{The initial operand shardings on the sharding groups of groupID: 3 do not match.}}
func.func @conflicting_sharding_group(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  sdy.sharding_group %arg0 group_id = 3 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id = 3 : tensor<8x8xf32>
  return
}
