// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards -split-input-file | filecheck %s

// An unreduced axis of size one is still all-reduced before a return whose
// result has no unreduced axes (issue 24: the axis-set difference lost it).
sdy.mesh @mesh = <["k"=2, "l"=1]>

// CHECK-LABEL: func @unreduced_size_one_axis_at_return
// CHECK-NEXT:  %[[AR:.*]] = sdy.all_reduce {"l"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<2x4xf32>
// CHECK-NEXT:  return %[[AR]]
func.func @unreduced_size_one_axis_at_return(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"l"}>}) -> tensor<2x4xf32> {
  return %arg0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["k"=2, "l"=1]>

// An operand with a size-one unreduced axis of a two-operand op is all-reduced too.
// CHECK-LABEL: func @unreduced_size_one_axis_operand
// CHECK-NEXT:  %[[AR:.*]] = sdy.all_reduce {"l"} %arg0 out_sharding=<@mesh, [{"k"}, {}]> : tensor<2x4xf32>
// CHECK-NEXT:  stablehlo.add %[[AR]], %arg1
func.func @unreduced_size_one_axis_operand(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"k"}, {}], unreduced={"l"}>}, %arg1: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"k"}, {}]>}) -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"k"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"k"}, {}]>]>} : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
