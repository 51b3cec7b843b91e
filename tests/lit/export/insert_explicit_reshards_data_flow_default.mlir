// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Without the full version a while's sources are not resharded.
// CHECK-LABEL: func @while_sources(
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<8x8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>, <@mesh, []>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %1 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %1, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: return %0#0 : tensor<8x8xf32>
func.func @while_sources(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<8x8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>, <@mesh, []>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Calls always get the full resolution: operands to the callee's argument shardings (an argument without
// one gets an open target); several insertions after one value appear in
// reverse order.
// CHECK-LABEL: func private @callee(
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
func.func private @callee(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @call_operands(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = call @callee(%2, %1, %0) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
func.func @call_operands(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = func.call @callee(%arg0, %arg0, %arg0) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

