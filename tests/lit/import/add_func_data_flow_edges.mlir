// RUN: sdy-dsl opt %s -sdy-add-func-data-flow-edges -split-input-file | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=4]>

// Every argument of a function other than main gets an edge at the start of
// its body, in argument order, holding the argument's sharding; main's
// arguments get none. Each call result gets an edge right after the call.
// CHECK-LABEL: func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>)
// CHECK-NEXT:  %[[CALL:.*]]:2 = call @pair(%arg0, %arg1)
// CHECK-NEXT:  %[[E0:.*]] = sdy.func_data_flow_edge %[[CALL]]#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xf32>
// CHECK-NEXT:  sdy.func_data_flow_edge %[[CALL]]#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<4xf32>
// CHECK-NEXT:  stablehlo.add %[[E0]], %[[E0]]
// CHECK-LABEL: func private @pair
// CHECK-NEXT:  %[[A0:.*]] = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
// CHECK-NEXT:  %[[A1:.*]] = sdy.func_data_flow_edge %arg1 : tensor<4xf32>
// CHECK-NEXT:  stablehlo.negate %[[A0]]
// CHECK-NEXT:  stablehlo.abs %[[A1]]
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> tensor<8xf32> {
  %0:2 = call @pair(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>, <@mesh, [{}]>]>} : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  %1 = stablehlo.add %0#0, %0#0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @pair(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  %1 = stablehlo.abs %arg1 : tensor<4xf32>
  return %0, %1 : tensor<8xf32>, tensor<4xf32>
}

// -----

// A module's only function is its main function, whatever its name.
// CHECK-LABEL: func @entry
// CHECK-NEXT:  stablehlo.negate %arg0
func.func @entry(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Tokens get no edge; a declaration gets none; calls nested in a while body
// get result edges; a function called twice has one edge per argument.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[TOKEN_CALL:.*]]:2 = call @with_token(%arg0, %arg1)
// CHECK-NEXT:  %[[E:.*]] = sdy.func_data_flow_edge %[[TOKEN_CALL]]#0 : tensor<8xf32>
// CHECK-NEXT:  %[[EXT:.*]] = call @external(%[[E]])
// CHECK-NEXT:  sdy.func_data_flow_edge %[[EXT]]
// CHECK:       } do {
// CHECK-NEXT:    %[[FIRST:.*]] = func.call @twice(
// CHECK-NEXT:    %[[FIRST_EDGE:.*]] = sdy.func_data_flow_edge %[[FIRST]]
// CHECK-NEXT:    %[[SECOND:.*]] = func.call @twice(%[[FIRST_EDGE]])
// CHECK-NEXT:    %[[SECOND_EDGE:.*]] = sdy.func_data_flow_edge %[[SECOND]]
// CHECK-NEXT:    stablehlo.return %[[SECOND_EDGE]]
// CHECK-LABEL: func private @with_token
// CHECK-NEXT:  %[[W:.*]] = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
// CHECK-NEXT:  return %[[W]], %arg1
// CHECK:       func.func private @external(tensor<8xf32>) -> tensor<8xf32>
// CHECK-LABEL: func private @twice
// CHECK-NEXT:  %[[T:.*]] = sdy.func_data_flow_edge %arg0
// CHECK-NEXT:  stablehlo.sine %[[T]]
func.func @main(%arg0: tensor<8xf32>, %arg1: !stablehlo.token, %arg2: tensor<i32>) -> tensor<8xf32> {
  %0:2 = call @with_token(%arg0, %arg1) : (tensor<8xf32>, !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token)
  %1 = call @external(%0#0) : (tensor<8xf32>) -> tensor<8xf32>
  %2:2 = stablehlo.while(%iterArg = %1, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %3 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %3 = func.call @twice(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    %4 = func.call @twice(%3) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %4, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %2#0 : tensor<8xf32>
}
func.func private @with_token(%arg0: tensor<8xf32>, %arg1: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  return %arg0, %arg1 : tensor<8xf32>, !stablehlo.token
}
func.func private @external(tensor<8xf32>) -> tensor<8xf32>
func.func private @twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
