// RUN: sdy-dsl opt %s -sdy-aggressive-propagate -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// An elementwise op whose two factors want the same axis: the factor with
// the larger sharding ("y","x" = 8 devices) wins over the smaller ("x").
// CHECK-LABEL: func @most_sharded_factor_wins
// CHECK:       stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", "x", ?}]>]>}
func.func @most_sharded_factor_wins(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                                    %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) -> tensor<16x16xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// A tensor's unreduced axes are taken by none of its factors: "y" cannot
// come back into the dot's result from the function result, nor go on to
// the right-hand side's columns.
// CHECK-LABEL: func @unreduced_axes_are_not_taken
// CHECK-SAME:    %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}
// CHECK:       stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}], unreduced={"y"}>]>}
func.func @unreduced_axes_are_not_taken(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A func argument's edge has one source per call, listed in the order MLIR's
// symbol-use walk finds the calls: a block's own ops before the ops nested in
// them. Two sources of equal size conflict and the first wins: the top-level
// call's [{}, {"x"}], although the call inside the case comes first in the text.
// (@main: with several funcs the reference looks the main func up by name.)
// CHECK-LABEL: func @main
// CHECK:         %[[EDGE:.*]] = sdy.func_data_flow_edge %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// CHECK-NEXT:    stablehlo.return %[[EDGE]]
// CHECK-LABEL: func private @callee
// CHECK-NEXT:    sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %c = sdy.constant dense<0> : tensor<i32>
  %0 = "stablehlo.case"(%c) ({
    %1 = func.call @callee(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = sdy.func_data_flow_edge %1 : tensor<8x8xf32>
    stablehlo.return %2 : tensor<8x8xf32>
  }) : (tensor<i32>) -> tensor<8x8xf32>
  %3 = func.call @callee(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = sdy.func_data_flow_edge %3 : tensor<8x8xf32>
  return %0, %4 : tensor<8x8xf32>, tensor<8x8xf32>
}

func.func private @callee(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
