// RUN: sdy-dsl opt %s -sdy-propagate-sharding-from-func-to-call -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=4]>

// A call without result shardings takes the callee's, one per result.
// CHECK-LABEL: func @call_takes_callee_result_shardings
// CHECK-NEXT:  call @two_results(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"b", ?}]>]>}
func.func @call_takes_callee_result_shardings(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>) {
  %0:2 = call @two_results(%arg0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<16xf32>
}
func.func private @two_results(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>}) {
  %0 = stablehlo.slice %arg0 [0:1, 0:16] : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %1 = stablehlo.reshape %0 : (tensor<1x16xf32>) -> tensor<16xf32>
  return %arg0, %1 : tensor<8x16xf32>, tensor<16xf32>
}

// -----

sdy.mesh @maximal = <[], device_ids=[3]>
sdy.mesh @mesh = <["a"=2, "b"=4]>

// A result without a sharding gets a fully open one on the mesh of the first
// result sharding whose mesh is not maximal (here the second result's).
// CHECK-LABEL: func @missing_result_sharding_is_open_on_first_non_maximal_mesh
// CHECK-NEXT:  call @three_results(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{}, {"b"}]>, <@mesh, [{?}]>]>}
func.func @missing_result_sharding_is_open_on_first_non_maximal_mesh(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>) {
  %0:3 = call @three_results(%arg0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>)
  return %0#0, %0#1, %0#2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>
}
func.func private @three_results(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<8xf32>) {
  %0 = stablehlo.slice %arg0 [0:8, 0:1] : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %1 = stablehlo.reshape %0 : (tensor<8x1xf32>) -> tensor<8xf32>
  return %arg0, %arg0, %1 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>
}

// -----

sdy.mesh @maximal = <[], device_ids=[0]>

// Result shardings only on maximal meshes give the call nothing.
// CHECK-LABEL: func @only_maximal_result_shardings_give_nothing
// CHECK-NEXT:  call @on_maximal(%arg0) : (tensor<8xf32>)
func.func @only_maximal_result_shardings_give_nothing(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = call @on_maximal(%arg0) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @on_maximal(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}, tensor<8xf32>) {
  return %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// A call with result shardings keeps them, even fully replicated ones.
// CHECK-LABEL: func @call_with_shardings_keeps_them
// CHECK-NEXT:  call @sharded(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
func.func @call_with_shardings_keeps_them(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @sharded(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @sharded(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

// An inlined mesh is kept inlined, for the open sharding too.
// CHECK-LABEL: func @inlined_mesh
// CHECK-NEXT:  call @inline_sharded(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=4]>, [{"x"}]>, <mesh<["x"=4]>, [{?}, {?}]>]>}
func.func @inlined_mesh(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<4x2xf32>) {
  %0:2 = call @inline_sharded(%arg0) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<4x2xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<4x2xf32>
}
func.func private @inline_sharded(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4]>, [{"x"}]>}, tensor<4x2xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<4x2xf32>
  return %arg0, %0 : tensor<8xf32>, tensor<4x2xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// A declaration's result shardings count as well, and calls nested in a
// while body are found.
// CHECK-LABEL: func @declared_callee_in_while_body
// CHECK:       } do {
// CHECK-NEXT:    func.call @external(%{{.*}}) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>}
func.func @declared_callee_in_while_body(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = func.call @external(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %1, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}
func.func private @external(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>})
