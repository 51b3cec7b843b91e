// RUN: sdy-dsl opt %s -sdy-insert-func-call-reshards -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A call-site sharding equivalent to the callee's (open or closed dimensions
// aside) needs no reshard; the call takes the callee's sharding.
// CHECK-LABEL: func @equivalent_no_reshard(
// CHECK-NEXT:    %[[CALL:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
// CHECK-NEXT:    return %[[CALL]]
func.func @equivalent_no_reshard(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A different call-site sharding: a reshard to it right after the call,
// read by every use of the result.
// CHECK-LABEL: func @different_reshard(
// CHECK-NEXT:    %[[CALL:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
// CHECK-NEXT:    %[[RESHARD:.*]] = sdy.reshard %[[CALL]] <@mesh, [{"y"}]>
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %[[RESHARD]]
// CHECK-NEXT:    return %[[RESHARD]], %[[NEG]]
func.func @different_reshard(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Several results: each reshard goes right after the call, so the last
// result's comes first. A result the callee leaves without sharding counts as
// fully open on the callee's mesh.
// CHECK-LABEL: func @several_results(
// CHECK-NEXT:    %[[CALL:.*]]:3 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>, <@mesh, [{?}]>]>}
// CHECK-NEXT:    %[[R2:.*]] = sdy.reshard %[[CALL]]#2 <@mesh, [{"y"}]>
// CHECK-NEXT:    %[[R0:.*]] = sdy.reshard %[[CALL]]#0 <@mesh, [{"y"}]>
// CHECK-NEXT:    return %[[R0]], %[[CALL]]#1, %[[R2]]
func.func @several_results(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:3 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, [{"x"}]>, <@mesh, [{"y"}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1, %0#2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32>) {
  return %arg0, %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A callee without result shardings counts as fully replicated (closed) on
// the mesh of the call's shardings.
// CHECK-LABEL: func @callee_without_shardings(
// CHECK-NEXT:    %[[CALL:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
// CHECK-NEXT:    %[[RESHARD:.*]] = sdy.reshard %[[CALL]] <@mesh, [{"x"}, {?}]>
// CHECK-NEXT:    return %[[RESHARD]]
// CHECK-LABEL: func private @callee(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
func.func @callee_without_shardings(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @callee(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A call without sharding whose callee has one: the reshard is to a fully
// closed replicated sharding on the callee's mesh.
// CHECK-LABEL: func @call_without_sharding(
// CHECK-NEXT:    %[[CALL:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>}
// CHECK-NEXT:    %[[RESHARD:.*]] = sdy.reshard %[[CALL]] <@mesh, [{}]>
// CHECK-NEXT:    return %[[RESHARD]]
func.func @call_without_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// Shardings on a maximal mesh do not count as the callee's: the call keeps
// its own shardings (closed, without axes).
// CHECK-LABEL: func @maximal_mesh_callee(
// CHECK-NEXT:    %[[CALL:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT:    return %[[CALL]]
func.func @maximal_mesh_callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) {
  return %arg0 : tensor<8xf32>
}

// -----

// Neither the call nor the callee has shardings: nothing changes.
// CHECK-LABEL: func @nothing_sharded(
// CHECK-NEXT:    %[[CALL:.*]] = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[CALL]]
func.func @nothing_sharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Calls nested in regions are handled too.
// CHECK-LABEL: func @call_in_manual_computation(
// CHECK:         %[[CALL:.*]] = func.call @callee(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
// CHECK-NEXT:    %[[RESHARD:.*]] = sdy.reshard %[[CALL]] <@mesh, [{}]>
// CHECK-NEXT:    sdy.return %[[RESHARD]]
func.func @call_in_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @callee(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<4xf32>) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  return %arg0 : tensor<4xf32>
}
