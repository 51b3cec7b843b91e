// RUN: sdy-dsl opt %s -sdy-export-named-computations -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A named computation becomes a call of a new private function at the end
// of the module, named after it and recording it as its origin: the
// in-shardings become the argument shardings, the out-shardings the call's
// shardings (the function gets no result shardings).
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[CALL:.*]] = call @body(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT:    return %[[CALL]]
// CHECK-LABEL: func private @other(
// CHECK-LABEL: func private @body(
// CHECK-SAME:    %arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
// CHECK-SAME:    -> tensor<8x2xf32> attributes {sdy.original_func_name = "body"} {
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:    return %[[NEG]]
func.func @main(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = sdy.named_computation<"body">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {"y"}]>] (%arg1: tensor<8x2xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x2xf32>
    sdy.return %1 : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

func.func private @other(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  return %arg0 : tensor<8x2xf32>
}

// -----

// The named computation's other attributes go to the call, but
// `execution_thread`, which goes to the function.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    call @host_body(%arg0) {mhlo.frontend_attributes = {compute_type = "host"}} :
// CHECK-LABEL: func private @host_body(
// CHECK-SAME:    attributes {execution_thread = "host", sdy.original_func_name = "host_body"}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"host_body">(%arg0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } {execution_thread = "host", mhlo.frontend_attributes = {compute_type = "host"}} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Names are made unique like MLIR's symbol table does: `_N` with one counter
// for the whole run, against every symbol of the module (functions, meshes).
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[F:.*]] = call @f(%arg0)
// CHECK-NEXT:    %[[F0:.*]] = call @f_0(%[[F]])
// CHECK-NEXT:    %[[G:.*]] = call @g_1(%[[F0]])
// CHECK-NEXT:    %[[M:.*]] = call @mesh_2(%[[G]])
// CHECK-LABEL: func private @g(
// CHECK-LABEL: func private @f(
// CHECK-SAME:    attributes {sdy.original_func_name = "f"}
// CHECK-LABEL: func private @f_0(
// CHECK-SAME:    attributes {sdy.original_func_name = "f"}
// CHECK-LABEL: func private @g_1(
// CHECK-SAME:    attributes {sdy.original_func_name = "g"}
// CHECK-LABEL: func private @mesh_2(
// CHECK-SAME:    attributes {sdy.original_func_name = "mesh"}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.named_computation<"f">(%0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.named_computation<"g">(%1) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.named_computation<"mesh">(%2) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// Nested named computations become functions first (post-order): the inner
// one's function comes before the outer one's, which calls it.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[OUTER:.*]] = call @outer(%arg0)
// CHECK-NEXT:    call @last(%[[OUTER]])
// CHECK-LABEL: func private @inner(
// CHECK-NEXT:    stablehlo.abs %arg0
// CHECK-LABEL: func private @outer(
// CHECK-NEXT:    %[[INNER:.*]] = call @inner(%arg0)
// CHECK-NEXT:    return %[[INNER]]
// CHECK-LABEL: func private @last(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"outer">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = sdy.named_computation<"inner">(%arg1) (%arg2: tensor<8xf32>) {
      %2 = stablehlo.abs %arg2 : tensor<8xf32>
      sdy.return %2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.named_computation<"last">(%0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Data-flow edges with a sharding replace the in- and out-shardings (an
// unsharded edge is fully open on the first sharded edge's mesh); every edge
// is erased.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[CALL:.*]]:2 = call @edges(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, [{"x", ?}]>]>}
// CHECK-NEXT:    return %[[CALL]]#0, %[[CALL]]#1
// CHECK-LABEL: func private @edges(
// CHECK-SAME:    %arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
// CHECK-SAME:    %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>})
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg1
// CHECK-NEXT:    return %arg0, %[[NEG]]
// CHECK-NOT:     sdy.data_flow_edge
func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<4xf32>) -> (tensor<8x2xf32>, tensor<4xf32>) {
  %0:2 = sdy.named_computation<"edges">(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}]>] (%arg2: tensor<8x2xf32>, %arg3: tensor<4xf32>) {
    %1 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{"y"}, {}]> : tensor<8x2xf32>
    %2 = sdy.data_flow_edge %arg3 : tensor<4xf32>
    %3 = stablehlo.negate %2 : tensor<4xf32>
    sdy.return %1, %3 : tensor<8x2xf32>, tensor<4xf32>
  } : (tensor<8x2xf32>, tensor<4xf32>) -> (tensor<8x2xf32>, tensor<4xf32>)
  %4 = sdy.data_flow_edge %0#0 : tensor<8x2xf32>
  %5 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"x", ?}]> : tensor<4xf32>
  return %4, %5 : tensor<8x2xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Edges without any sharding keep the in- and out-shardings the named
// computation had.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    call @unsharded_edges(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
// CHECK-LABEL: func private @unsharded_edges(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// CHECK-NEXT:    return %arg0
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"unsharded_edges">(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"y"}]>] (%arg1: tensor<8xf32>) {
    %1 = sdy.data_flow_edge %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A named computation inside a manual computation's body becomes a call there.
// CHECK-LABEL: func @main(
// CHECK:         %[[CALL:.*]] = func.call @in_manual(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    sdy.return %[[CALL]]
// CHECK-LABEL: func private @in_manual(
// CHECK-SAME:    %arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = sdy.named_computation<"in_manual">(%arg1) in_shardings=[<@mesh, [{"y"}]>] (%arg2: tensor<4xf32>) {
      sdy.return %arg2 : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
