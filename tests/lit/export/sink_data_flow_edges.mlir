// RUN: sdy-dsl opt %s -sdy-sink-data-flow-edges -split-input-file | filecheck %s
// RUN: sdy-dsl opt %s -sdy-sink-data-flow-edges='sink-debug-sharding-origins=true' -split-input-file | filecheck %s --check-prefix=ORIGINS
// RUN: sdy-dsl opt %s -sdy-sink-data-flow-edges='sink-debug-propagation-edge-sharding=true' -split-input-file | filecheck %s --check-prefix=EDGES

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @other = <["c"=4]>

// The edge shardings move onto the owning op. Owners whose edge has no
// sharding get a fully open sharding on the mesh of the first sharded edge
// (here @other); a rank-0 owner gets `[]`. Every edge is replaced by its input.
// CHECK-LABEL: func @while_partial_edge_shardings
// CHECK:       %[[WHILE:.*]]:3 = stablehlo.while
// CHECK-SAME:    attributes {sdy.sharding = #sdy.sharding_per_value<[<@other, [{?}]>, <@other, [{"c"}]>, <@other, []>]>}
// CHECK:       return %[[WHILE]]#0, %[[WHILE]]#1
// CHECK-NOT:   sdy.data_flow_edge
func.func @while_partial_edge_shardings(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1, %iterArg_2 = %arg2) : tensor<8xf32>, tensor<4xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_1, %iterArg_2 : tensor<8xf32>, tensor<4xf32>, tensor<i32>
  }
  %1 = sdy.data_flow_edge %0#0 : tensor<8xf32>
  %2 = sdy.data_flow_edge %0#1 sharding=<@other, [{"c"}]> : tensor<4xf32>
  %3 = sdy.data_flow_edge %0#2 : tensor<i32>
  return %1, %2 : tensor<8xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// No edge has a sharding: the owner keeps the sharding it already had.
// CHECK-LABEL: func @no_edge_sharding_keeps_owner_sharding
// CHECK-NEXT:  %[[B:.*]] = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} %arg0
// CHECK-NEXT:  return %[[B]]
func.func @no_edge_sharding_keeps_owner_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An edge sharding replaces the owner's previous sharding.
// CHECK-LABEL: func @edge_sharding_overrides_owner
// CHECK-NEXT:  %[[B:.*]] = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>} %arg0
// CHECK-NEXT:  return %[[B]]
func.func @edge_sharding_overrides_owner(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"b", ?}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Case results behave like the other result owners.
// CHECK-LABEL: func @case_results
// CHECK:       %[[CASE:.*]]:2 = "stablehlo.case"(%arg0)
// CHECK:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>}
// CHECK-NEXT:  return %[[CASE]]#0, %[[CASE]]#1
func.func @case_results(%arg0: tensor<i32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg1 : tensor<8xf32>, tensor<8xf32>
  }) : (tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Block-argument edges of a named computation become its `in_shardings`
// (open where the edge had none); result edges without shardings leave
// `out_shardings` absent.
// CHECK-LABEL: func @named_computation_block_arg_edges
// CHECK-NEXT:  %[[NC:.*]] = sdy.named_computation<"foo">(%arg0, %arg1) in_shardings=[<@mesh, [{?}]>, <@mesh, [{"b"}]>] (%[[A0:.*]]: tensor<8xf32>, %[[A1:.*]]: tensor<8xf32>) {
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[A0]], %[[A1]]
// CHECK-NEXT:    sdy.return %[[ADD]]
// CHECK-NEXT:  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:  return %[[NC]]
func.func @named_computation_block_arg_edges(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0, %arg1) (%arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
    %2 = sdy.data_flow_edge %arg2 : tensor<8xf32>
    %3 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{"b"}]> : tensor<8xf32>
    %4 = stablehlo.add %2, %3 : tensor<8xf32>
    sdy.return %4 : tensor<8xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A manual computation's block-argument edge holds free axes only: sinking it
// puts the in-sharding's manual axes back in front of each dimension (the
// dimension takes the edge's open/closed state). Result edges are copied
// as they are to `out_shardings`.
// CHECK-LABEL: func @manual_computation_edges
// CHECK-NEXT:  %[[MC:.*]] = sdy.manual_computation(%arg0)
// CHECK-SAME:    in_shardings=[<@mesh, [{"a", "b"}, {?}]>]
// CHECK-SAME:    out_shardings=[<@mesh, [{"a", "b"}, {}]>]
// CHECK-SAME:    manual_axes={"a"} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    sdy.return %[[A]]
// CHECK-NEXT:  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  return %[[MC]]
func.func @manual_computation_edges(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"b"}, {?}]> : tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", "b"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// Only the free axes come from the edge: the manual-axis prefix of each
// dimension and the replicated/unreduced axes stay those of the original
// in-sharding. A block argument whose edge has no sharding gets a fully open
// one, with the manual axes in front.
// CHECK-LABEL: func @manual_computation_partial_edges
// CHECK-NEXT:  sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:    in_shardings=[<@mesh, [{"a"}, {"c"}], replicated={"b"}>, <@mesh, [{"a", ?}]>]
// CHECK-SAME:    out_shardings=[<@mesh, [{"a"}, {}]>]
func.func @manual_computation_partial_edges(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", "c"}, {}], replicated={"b"}>, <@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4xf32>) {
    %2 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {"c"}]> : tensor<4x8xf32>
    %3 = sdy.data_flow_edge %arg3 : tensor<4xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Debug options: the owning op gets `sdy.block_arg_*` and `sdy.result_*`
// arrays even when it has no block-argument owners. Only edges that carry the
// debug attribute contribute an entry (no placeholder for the others), so the
// array can be shorter than the number of owners.
// CHECK-LABEL: func @debug_info
// CHECK-NEXT:  %[[B:.*]]:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>} %arg0, %arg1
// CHECK-NEXT:  return %[[B]]#0, %[[B]]#1
// ORIGINS-LABEL: func @debug_info
// ORIGINS-NEXT:  stablehlo.optimization_barrier {sdy.block_arg_sharding_origins = [], sdy.result_sharding_origins = [{a = "self"}], sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>}
// EDGES-LABEL: func @debug_info
// EDGES-NEXT:  stablehlo.optimization_barrier {sdy.block_arg_propagation_edges = [], sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}]>], sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>}
func.func @debug_info(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}]>, sdy.sharding_origins = {a = "self"}} : tensor<8xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
