// RUN: sdy-dsl opt %s -sdy-import-func-calls -split-input-file | filecheck %s

// A call becomes a named computation named after its callee, holding the
// callee's body; the callee is erased. Each body argument and each result
// gets a data-flow edge.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[NC:.*]] = sdy.named_computation<"scale">(%arg0) (%arg1: tensor<8xf32>) {
// CHECK-NEXT:    %[[ARG_EDGE:.*]] = sdy.data_flow_edge %arg1 : tensor<8xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[ARG_EDGE]], %[[ARG_EDGE]]
// CHECK-NEXT:    sdy.return %[[ADD]] : tensor<8xf32>
// CHECK-NEXT:  } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:  %[[EDGE:.*]] = sdy.data_flow_edge %[[NC]] : tensor<8xf32>
// CHECK-NEXT:  stablehlo.abs %[[EDGE]]
// CHECK-NOT:   func.func private @scale
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @scale(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @scale(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @maximal = <[], device_ids=[1]>
sdy.mesh @mesh = <["a"=2, "b"=4]>

// `in_shardings` are the callee's argument shardings (a missing one fully open
// on the first non-maximal mesh), `out_shardings` the call's result shardings
// (the callee's are ignored); the call's other attributes are kept.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[NC:.*]] = sdy.named_computation<"sharded">(%arg0, %arg1, %arg2) in_shardings=[<@maximal, []>, <@mesh, [{"b"}]>, <@mesh, [{?}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>]
// CHECK-NEXT:    sdy.data_flow_edge %arg3 sharding=<@maximal, []>
// CHECK-NEXT:    sdy.data_flow_edge %arg4 sharding=<@mesh, [{"b"}]>
// CHECK-NEXT:    sdy.data_flow_edge %arg5 sharding=<@mesh, [{?}]>
// CHECK:       } {mhlo.frontend_attributes = {inlineable = "false"}, tag = 7 : i64}
// CHECK-NEXT:  sdy.data_flow_edge %[[NC]] sharding=<@mesh, [{"a"}, {"b"}]>
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<8xf32>) -> tensor<8x16xf32> {
  %0 = call @sharded(%arg0, %arg1, %arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>, mhlo.frontend_attributes = {inlineable = "false"}, tag = 7 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<8xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func private @sharded(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}, %arg2: tensor<8xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// Each further call gets a copy of the first named computation's body.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[NC_0:.*]] = sdy.named_computation<"step">(%arg0) (%arg1: tensor<8xf32>) {
// CHECK-NEXT:    %[[E_0:.*]] = sdy.data_flow_edge %arg1
// CHECK-NEXT:    %[[NEG_0:.*]] = stablehlo.negate %[[E_0]]
// CHECK-NEXT:    sdy.return %[[NEG_0]]
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[EDGE_0:.*]] = sdy.data_flow_edge %[[NC_0]]
// CHECK-NEXT:  %[[NC_1:.*]] = sdy.named_computation<"step">(%[[EDGE_0]]) (%arg1: tensor<8xf32>) {
// CHECK-NEXT:    %[[E_1:.*]] = sdy.data_flow_edge %arg1
// CHECK-NEXT:    %[[NEG_1:.*]] = stablehlo.negate %[[E_1]]
// CHECK-NEXT:    sdy.return %[[NEG_1]]
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[EDGE_1:.*]] = sdy.data_flow_edge %[[NC_1]]
// CHECK-NEXT:  return %[[EDGE_1]]
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @step(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @step(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @step(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Callees are imported first: a callee's own calls are named computations
// inside its body by the time that body moves (or is copied).
// CHECK-LABEL: func @main
// CHECK-NEXT:  sdy.named_computation<"outer">(%arg0)
// CHECK-NEXT:    %[[E_0:.*]] = sdy.data_flow_edge %arg1
// CHECK-NEXT:    sdy.named_computation<"inner">(%[[E_0]])
// CHECK-NEXT:      sdy.data_flow_edge %arg2
// CHECK-NEXT:      stablehlo.sqrt
// CHECK:         stablehlo.multiply
// CHECK:       sdy.named_computation<"outer">
// CHECK:         sdy.named_computation<"inner">
// CHECK-NEXT:      sdy.data_flow_edge %arg2
// CHECK-NEXT:      stablehlo.sqrt
// CHECK:         stablehlo.multiply
// CHECK-NOT:   func.func private
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @outer(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @outer(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @outer(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @inner(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @inner(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sqrt %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The name is the callee's `sdy.original_func_name` if it has one; its
// `execution_thread` goes to the named computation.
// CHECK-LABEL: func @main
// CHECK-NEXT:  sdy.named_computation<"kernel">(%arg0)
// CHECK:       } {execution_thread = "host"} : (tensor<8xf32>) -> tensor<8xf32>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @copy_3(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @copy_3(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "kernel", execution_thread = "host"} {
  %0 = stablehlo.exponential %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Tokens get no data-flow edge; a named computation that was already in the
// module gets its edges too; a call in a while body is imported in place.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[EXISTING:.*]] = sdy.named_computation<"existing">(%arg0) (%arg3: tensor<8xf32>) {
// CHECK-NEXT:    sdy.data_flow_edge %arg3
// CHECK:       %[[EXISTING_EDGE:.*]] = sdy.data_flow_edge %[[EXISTING]]
// CHECK-NEXT:  %[[NC:.*]]:2 = sdy.named_computation<"with_token">(%[[EXISTING_EDGE]], %arg1) (%arg3: tensor<8xf32>, %arg4: !stablehlo.token) {
// CHECK-NEXT:    %[[E:.*]] = sdy.data_flow_edge %arg3
// CHECK-NEXT:    sdy.return %[[E]], %arg4
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[RESULT_EDGE:.*]] = sdy.data_flow_edge %[[NC]]#0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.while(%[[ITER:.*]] = %[[RESULT_EDGE]],
// CHECK:       } do {
// CHECK-NEXT:    %[[BODY:.*]] = sdy.named_computation<"body">(%[[ITER]])
// CHECK-NEXT:      sdy.data_flow_edge %arg3
// CHECK-NEXT:      stablehlo.cosine
// CHECK:         %[[BODY_EDGE:.*]] = sdy.data_flow_edge %[[BODY]]
// CHECK-NEXT:    stablehlo.return %[[BODY_EDGE]]
// CHECK:       return %{{.*}}, %[[NC]]#1
func.func @main(%arg0: tensor<8xf32>, %arg1: !stablehlo.token, %arg2: tensor<i32>) -> (tensor<8xf32>, !stablehlo.token) {
  %0 = sdy.named_computation<"existing">(%arg0) (%arg3: tensor<8xf32>) {
    %1 = stablehlo.abs %arg3 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1:2 = call @with_token(%0, %arg1) : (tensor<8xf32>, !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token)
  %2:2 = stablehlo.while(%iterArg = %1#0, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %3 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %3 = func.call @body(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %3, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %2#0, %1#1 : tensor<8xf32>, !stablehlo.token
}
func.func private @with_token(%arg0: tensor<8xf32>, %arg1: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  return %arg0, %arg1 : tensor<8xf32>, !stablehlo.token
}
func.func private @body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.cosine %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A call in a manual computation's body becomes a named computation there,
// with the body's local types.
// CHECK-LABEL: func @main
// CHECK-NEXT:  sdy.manual_computation(%arg0)
// CHECK-NEXT:    %[[NC:.*]] = sdy.named_computation<"local">(%arg1) (%arg2: tensor<4x4xf32>) {
// CHECK-NEXT:      %[[E:.*]] = sdy.data_flow_edge %arg2 : tensor<4x4xf32>
// CHECK-NEXT:      stablehlo.negate %[[E]]
// CHECK:         %[[NC_EDGE:.*]] = sdy.data_flow_edge %[[NC]] : tensor<4x4xf32>
// CHECK-NEXT:    sdy.return %[[NC_EDGE]]
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x4xf32>) {
    %1 = func.call @local(%arg1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    sdy.return %1 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func private @local(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
