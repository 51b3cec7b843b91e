// RUN: sdy-dsl opt %s -sdy-reshard-to-collectives='keep-redundant-reshards=true' -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// With keep-redundant-reshards, a reshard to the sharding its operand has stays.
// CHECK-LABEL: func @kept
func.func @kept(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// ... read through a propagation barrier; any other reshard is still lowered.
// CHECK-LABEL: func @barrier_and_other
func.func @barrier_and_other(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  // CHECK-NEXT: %[[B:.*]] = sdy.propagation_barrier %arg0
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[B]] <@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>
  // CHECK-NEXT: return %[[R]], %[[G]]
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<16x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<16x8xf32>
  return %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>
}
