// RUN: sdy-dsl opt %s --pass-pipeline='builtin.module(canonicalize{enable-patterns={sdy-reshard} max-iterations=10 region-simplify=aggressive})' | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// A reshard of a single-use reshard reshards the original value; with
// another use, the inner one stays.
// CHECK-LABEL: func @reshard_of_reshard
func.func @reshard_of_reshard(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"z"}, {}]>
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %arg0 <@mesh, [{"y"}, {}]>
  // CHECK-NEXT: %[[C:.*]] = sdy.reshard %[[B]] <@mesh, [{}, {"x"}]>
  // CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"z"}, {}]> : tensor<16x8xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {"x"}]> : tensor<16x8xf32>
  return %1, %2, %3 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// Collective patterns are not enabled here.
// CHECK-LABEL: func @collectives_untouched
func.func @collectives_untouched(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: sdy.all_gather [{}, {}]
  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
