// RUN: sdy-dsl opt %s -sdy-remove-propagation-debug-info -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A function loses the debug entries of its arguments and results; their other
// entries and the function's own attributes stay. Ops lose theirs.
// CHECK-LABEL: func @function_entries(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {other.attr = 1 : i64, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-SAME:    attributes {sdy.sharding_origins = "kept on the function itself"}
// CHECK-NEXT:    stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
func.func @function_entries(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "self"}, other.attr = 1 : i64}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) attributes {sdy.sharding_origins = "kept on the function itself"} {
  %0 = stablehlo.add %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_origins = [{a = "input: 0"}]} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A data-flow op loses its block_arg_/result_ arrays, ops in its body their origins.
// CHECK-LABEL: func @data_flow_op_arrays(
// CHECK:         stablehlo.while
// CHECK-SAME:    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>, <@mesh, []>]>}
// CHECK:         stablehlo.negate %iterArg : tensor<8x4xf32>
func.func @data_flow_op_arrays(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>) -> tensor<8x4xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8x4xf32>, tensor<i32> attributes {sdy.block_arg_sharding_origins = [{a = "self"}], sdy.result_sharding_origins = [{a = "input: 0"}], sdy.block_arg_propagation_edges = [], sdy.result_propagation_edges = [], sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>, <@mesh, []>]>}
  cond {
    %1 = stablehlo.compare  LT, %iterArg_1, %iterArg_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding_origins = [{a = "input: 0"}]} : tensor<8x4xf32>
    stablehlo.return %1, %iterArg_1 : tensor<8x4xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x4xf32>
}
