// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards='enable-full-version=true' -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A while: its init operand and its body's return operand are resharded to
// the result's sharding, right after their definitions.
// CHECK-LABEL: func @while_sources(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %c) : tensor<8x8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>, <@mesh, []>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %2 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %2 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %2 = sdy.reshard %iterArg <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.negate %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %4, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: return %1#0 : tensor<8x8xf32>
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

// An optimization barrier: each operand to its result's sharding.
// CHECK-LABEL: func @optimization_barrier(
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>, <@mesh, [{"y"}, {}]>]>} %1, %0 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2#0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.reshard %2#1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @optimization_barrier(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>, <@mesh, [{"y"}, {}]>]>} %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A case: each branch's return operand.
// CHECK-LABEL: func @case_branches(
// CHECK-NEXT: %0 = sdy.reshard %arg2 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = "stablehlo.case"(%arg0) ({
// CHECK-NEXT: stablehlo.return %1 : tensor<8x8xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %0 : tensor<8x8xf32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<i32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
func.func @case_branches(%arg0: tensor<i32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<8x8xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A manual computation: operands to the in-shardings (outside), the body's
// return operands to the out-shardings without the manual axes (inside).
// CHECK-LABEL: func @manual_computation(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %3 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<2x8xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {"y"}]> : tensor<2x8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @manual_computation(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A named computation: operands to the in-shardings, the return operands to
// the out-shardings.
// CHECK-LABEL: func @named_computation(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.named_computation<"foo">(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {"x"}]>] (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %3 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @named_computation(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {"x"}]>] (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A call: operands to the callee's argument shardings (an argument without
// one gets an open target); several insertions after one value appear in
// reverse order.
// CHECK-LABEL: func private @callee(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
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

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A call to a callee without argument shardings: every operand to closed
// replicated on the mesh of the first sharded operand.
// CHECK-LABEL: func private @plain_callee(
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
func.func private @plain_callee(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @call_without_callee_shardings(
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.negate %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %2 = call @plain_callee(%1, %0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @call_without_callee_shardings(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = func.call @plain_callee(%0, %arg1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
