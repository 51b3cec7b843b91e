// RUN: sdy-dsl opt %s -sdy-add-data-flow-edges -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Every result of a while owns an edge, used or not, rank-0 or not. The edges
// follow the op in result order, carry the matching entry of the op's
// `sdy.sharding`, and all former uses go through them. The body's block
// arguments get no edge: the while results own those edges.
// CHECK-LABEL: func @while_results_own_edges
// CHECK:       %[[WHILE:.*]]:2 = stablehlo.while(%[[ITER:.*]] = %arg0, %{{.*}} = %arg1)
// CHECK:       } do {
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[ITER]], %[[ITER]]
// CHECK-NEXT:    stablehlo.return %[[ADD]],
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[EDGE0:.*]] = sdy.data_flow_edge %[[WHILE]]#0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT:  %[[EDGE1:.*]] = sdy.data_flow_edge %[[WHILE]]#1 sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT:  return %[[EDGE0]] : tensor<8xf32>
func.func @while_results_own_edges(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, []>]>}
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<8xf32>
    stablehlo.return %1, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}

// -----

// A token result is not a static-shaped tensor: it gets no edge. Without a
// `sdy.sharding` on the op the edge has no sharding.
// CHECK-LABEL: func @while_token_result_is_skipped
// CHECK:       %[[WHILE:.*]]:2 = stablehlo.while
// CHECK:       } do {
// CHECK-NEXT:    stablehlo.return
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[EDGE:.*]] = sdy.data_flow_edge %[[WHILE]]#0 : tensor<8xf32>
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %[[EDGE]], %[[EDGE]] : tensor<8xf32>
// CHECK-NEXT:  return %[[ADD]], %[[WHILE]]#1 : tensor<8xf32>, !stablehlo.token
func.func @while_token_result_is_skipped(%arg0: tensor<8xf32>, %arg1: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8xf32>, !stablehlo.token
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_1 : tensor<8xf32>, !stablehlo.token
  }
  %1 = stablehlo.add %0#0, %0#0 : tensor<8xf32>
  return %1, %0#1 : tensor<8xf32>, !stablehlo.token
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Each case result owns an edge; each edge takes its own entry of the op's
// sharding (open dimensions included).
// CHECK-LABEL: func @case_results_own_edges
// CHECK:       %[[CASE:.*]]:2 = "stablehlo.case"(%arg0)
// CHECK:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b", ?}]>]>}
// CHECK-NEXT:  %[[EDGE0:.*]] = sdy.data_flow_edge %[[CASE]]#0 sharding=<@mesh, [{?}]> : tensor<8xf32>
// CHECK-NEXT:  %[[EDGE1:.*]] = sdy.data_flow_edge %[[CASE]]#1 sharding=<@mesh, [{"b", ?}]> : tensor<8xf32>
// CHECK-NEXT:  return %[[EDGE1]], %[[EDGE0]]
func.func @case_results_own_edges(%arg0: tensor<i32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg2 : tensor<8xf32>, tensor<8xf32>
  }, {
    stablehlo.return %arg2, %arg1 : tensor<8xf32>, tensor<8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b", ?}]>]>} : (tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#1, %0#0 : tensor<8xf32>, tensor<8xf32>
}

// -----

// stablehlo.if is not a data-flow op in the reference: nothing is inserted.
// CHECK-LABEL: func @if_gets_no_edges
// CHECK-NOT:   sdy.data_flow_edge
func.func @if_gets_no_edges(%arg0: tensor<i1>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.if"(%arg0) ({
    stablehlo.return %arg1 : tensor<8xf32>
  }, {
    stablehlo.return %arg1 : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Optimization-barrier results own edges too; the token result is skipped.
// CHECK-LABEL: func @optimization_barrier_results
// CHECK-NEXT:  %[[BARRIER:.*]]:3 = stablehlo.optimization_barrier %arg0, %arg1, %arg2
// CHECK-NEXT:  %[[EDGE0:.*]] = sdy.data_flow_edge %[[BARRIER]]#0 : tensor<8xf32>
// CHECK-NEXT:  %[[EDGE2:.*]] = sdy.data_flow_edge %[[BARRIER]]#2 : tensor<4xf32>
// CHECK-NEXT:  return %[[EDGE0]], %[[BARRIER]]#1, %[[EDGE2]]
func.func @optimization_barrier_results(%arg0: tensor<8xf32>, %arg1: !stablehlo.token, %arg2: tensor<4xf32>) -> (tensor<8xf32>, !stablehlo.token, tensor<4xf32>) {
  %0:3 = stablehlo.optimization_barrier %arg0, %arg1, %arg2 : tensor<8xf32>, !stablehlo.token, tensor<4xf32>
  return %0#0, %0#1, %0#2 : tensor<8xf32>, !stablehlo.token, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A named computation owns an edge per block argument (inserted at the start
// of the body, in argument order, sharded like `in_shardings`) and per result
// (after the op, sharded like `out_shardings`).
// CHECK-LABEL: func @named_computation_args_and_results
// CHECK-NEXT:  %[[NC:.*]]:2 = sdy.named_computation<"foo">(%arg0, %arg1)
// CHECK-SAME:      (%[[A0:.*]]: tensor<8xf32>, %[[A1:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[E0:.*]] = sdy.data_flow_edge %[[A0]] sharding=<@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:    %[[E1:.*]] = sdy.data_flow_edge %[[A1]] sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT:    %[[ABS:.*]] = stablehlo.abs %[[E0]] : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[ABS]], %[[E1]] : tensor<8xf32>, tensor<4xf32>
// CHECK-NEXT:  } : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
// CHECK-NEXT:  %[[R0:.*]] = sdy.data_flow_edge %[[NC]]#0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT:  %[[R1:.*]] = sdy.data_flow_edge %[[NC]]#1 sharding=<@mesh, [{?}]> : tensor<4xf32>
// CHECK-NEXT:  return %[[R0]], %[[R1]]
func.func @named_computation_args_and_results(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0:2 = sdy.named_computation<"foo">(%arg0, %arg1) in_shardings=[<@mesh, [{"b"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"a"}]>, <@mesh, [{?}]>] (%arg2: tensor<8xf32>, %arg3: tensor<4xf32>) {
    %1 = stablehlo.abs %arg2 : tensor<8xf32>
    sdy.return %1, %arg3 : tensor<8xf32>, tensor<4xf32>
  } : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<4xf32>
}

// -----

// Data-flow ops nested in a named computation get their edges inside the
// body; edges without shardings when the ops have none.
// CHECK-LABEL: func @nested_in_named_computation
// CHECK-NEXT:  %[[NC:.*]] = sdy.named_computation<"foo">(%arg0) (%[[A0:.*]]: tensor<8xf32>) {
// CHECK-NEXT:    %[[E0:.*]] = sdy.data_flow_edge %[[A0]] : tensor<8xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[E0]] : tensor<8xf32>
// CHECK-NEXT:    %[[E1:.*]] = sdy.data_flow_edge %[[B]] : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[E1]] : tensor<8xf32>
// CHECK-NEXT:  } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:  %[[E2:.*]] = sdy.data_flow_edge %[[NC]] : tensor<8xf32>
// CHECK-NEXT:  return %[[E2]]
func.func @nested_in_named_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = stablehlo.optimization_barrier %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// A manual computation owns edges on its body arguments and results. A body
// argument's edge holds the in-sharding without the manual axes (from the
// dimensions and from the replicated axes); a result's edge holds the
// out-sharding as written.
// CHECK-LABEL: func @manual_computation_edges
// CHECK-NEXT:  %[[MC:.*]] = sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:      (%[[A0:.*]]: tensor<4x8xf32>, %[[A1:.*]]: tensor<8xf32>) {
// CHECK-NEXT:    %[[E0:.*]] = sdy.data_flow_edge %[[A0]] sharding=<@mesh, [{"c"}, {?}], replicated={"b"}> : tensor<4x8xf32>
// CHECK-NEXT:    %[[E1:.*]] = sdy.data_flow_edge %[[A1]] sharding=<@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[E0]] : tensor<4x8xf32>
// CHECK-NEXT:  } : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %[[R:.*]] = sdy.data_flow_edge %[[MC]] sharding=<@mesh, [{"a"}, {}], replicated={"b"}> : tensor<8x8xf32>
// CHECK-NEXT:  return %[[R]]
func.func @manual_computation_edges(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", "c"}, {?}], replicated={"b"}>, <@mesh, [{}], replicated={"a"}>] out_shardings=[<@mesh, [{"a"}, {}], replicated={"b"}>] manual_axes={"a"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8xf32>) {
    sdy.return %arg2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// func.call is not a data-flow op here: nothing is inserted.
// CHECK-LABEL: func @call_gets_no_edges
// CHECK-NEXT:  %[[CALL:.*]] = call @callee(%arg0)
// CHECK-NEXT:  return %[[CALL]]
func.func @call_gets_no_edges(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
