// RUN: sdy-dsl opt %s -sdy-apply-sharding-constraints=debug-propagation-edge-sharding=true -sdy-basic-propagate=debug-propagation-edge-sharding=true | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Propagation numbers its steps after those an earlier pass recorded: the
// constraints took steps 0 and 1, so the propagation's first step is 2.
// CHECK-LABEL: func @steps_continue_after_the_constraints
// CHECK:       sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"x" = result-0 -> [operand-0]}]}]>}
// CHECK:       stablehlo.tanh %0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"x" = operand-0 -> [result-0]}]}]>
// CHECK:       sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"y" = result-0 -> [operand-0]}]}]>}
// CHECK:       stablehlo.tanh %2 {sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{"y" = operand-0 -> [result-0]}]}]>
func.func @steps_continue_after_the_constraints(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.tanh %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %3 = stablehlo.tanh %2 : tensor<8x8xf32>
  return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
