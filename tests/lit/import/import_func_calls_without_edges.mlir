// RUN: sdy-dsl opt %s -sdy-import-func-calls='add-data-flow-edges-on-named-computations=false' | filecheck %s

sdy.mesh @mesh = <["a"=2]>

// Without edges: the named computation holds the callee's body unchanged.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[NC_0:.*]] = sdy.named_computation<"scale">(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
// CHECK-NEXT:    %[[ADD_0:.*]] = stablehlo.add %arg1, %arg1
// CHECK-NEXT:    sdy.return %[[ADD_0]]
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[NC_1:.*]] = sdy.named_computation<"scale">(%[[NC_0]]) in_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
// CHECK-NEXT:    %[[ADD_1:.*]] = stablehlo.add %arg1, %arg1
// CHECK-NEXT:    sdy.return %[[ADD_1]]
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[NC_1]]
// CHECK-NOT:   sdy.data_flow_edge
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @scale(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @scale(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @scale(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
