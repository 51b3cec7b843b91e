// RUN: sdy-dsl opt %s -sdy-apply-sharding-constraints | filecheck %s

// A constraint on a while body argument whose while already has its data-flow
// edge, right after the argument and its only user: applying it changes
// nothing (neither the while nor the edge takes the sharding, the constraint
// gets no sharding rule). Issue 24: the rule that shards the input used to
// fire in its place.
sdy.mesh @mesh = <["x"=8]>

// CHECK-LABEL: func @constraint_already_after_edge_target
// CHECK-NEXT:  %[[W:.*]] = stablehlo.while(%iterArg = %arg0) : tensor<12xf32>
// CHECK-NOT:   sdy.sharding =
// CHECK:       sdy.sharding_constraint %iterArg <@mesh, [{}]> : tensor<12xf32>
// CHECK-NOT:   sdy.sharding
// CHECK-NEXT:  stablehlo.return
// CHECK:       %[[E:.*]] = sdy.data_flow_edge %[[W]] : tensor<12xf32>
// CHECK-NEXT:  return %[[E]]
func.func @constraint_already_after_edge_target(%arg0: tensor<12xf32>) -> tensor<12xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<12xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{}]> : tensor<12xf32>
    stablehlo.return %1 : tensor<12xf32>
  }
  %2 = sdy.data_flow_edge %0 : tensor<12xf32>
  return %2 : tensor<12xf32>
}
