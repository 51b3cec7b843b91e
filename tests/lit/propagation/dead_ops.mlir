// RUN: sdy-dsl opt %s -sdy-aggressive-propagate | filecheck %s

// An op used only inside a dead `stablehlo.case` becomes dead once the case
// goes: MLIR erases the case's nested ops one at a time, so the add is down to
// its last use when the last of them goes, and the greedy driver erases it too.
// (Found by tests/fuzz_call_graph.py, seed 1357.)

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func @main
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x"}]>
  // CHECK-NEXT: return %[[C]]
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4x8xf32>
  %c = stablehlo.constant dense<1> : tensor<i32>
  %2 = "stablehlo.case"(%c) ({
    %3 = stablehlo.add %0, %1 : tensor<4x8xf32>
    stablehlo.return %3 : tensor<4x8xf32>
  }, {
    %4 = stablehlo.multiply %arg0, %1 : tensor<4x8xf32>
    %5 = stablehlo.add %4, %1 : tensor<4x8xf32>
    stablehlo.return %5 : tensor<4x8xf32>
  }) : (tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
