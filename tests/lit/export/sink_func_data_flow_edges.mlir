// RUN: sdy-dsl opt %s -sdy-sink-func-data-flow-edges -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An edge on a func argument gives its sharding to the argument and is
// replaced by it.
// CHECK-LABEL: func private @arg_edge_sharded(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:    return %[[NEG]]
// CHECK-NOT:     sdy.func_data_flow_edge
func.func private @arg_edge_sharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An unsharded edge on a sharded argument leaves the argument fully open on
// the mesh it had.
// CHECK-LABEL: func private @arg_edge_unsharded(
// CHECK-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}
// CHECK-NEXT:    return %arg0
func.func private @arg_edge_unsharded(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x4xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Neither the edge nor its input has a sharding: the input gets none.
// CHECK-LABEL: func private @nothing_sharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    return %arg0
func.func private @nothing_sharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  return %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
}

// A sharded edge on one result of an unsharded call: that result gets the
// edge's sharding, the other results a fully open sharding on the same mesh.
// CHECK-LABEL: func @call_result_edge(
// CHECK-NEXT:    %[[CALL:.*]]:2 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b"}]>]>}
// CHECK-NEXT:    return %[[CALL]]#0, %[[CALL]]#1
func.func @call_result_edge(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = call @callee(%arg0) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = sdy.func_data_flow_edge %0#0 : tensor<8xf32>
  %2 = sdy.func_data_flow_edge %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// A sharded edge replaces the sharding the call result had.
// CHECK-LABEL: func @call_result_edge_overrides(
// CHECK-NEXT:    call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>}
func.func @call_result_edge_overrides(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// Edges nested in a region are sunk too.
// CHECK-LABEL: func @edge_in_while_body(
// CHECK:         %[[CALL:.*]] = func.call @callee(%iterArg) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NEXT:    stablehlo.return %[[CALL]]
func.func @edge_in_while_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = func.call @callee(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = sdy.func_data_flow_edge %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
