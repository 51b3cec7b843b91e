// RUN: sdy-dsl opt %s -sdy-basic-propagate | filecheck %s

sdy.mesh @mesh = <["x"=6, "y"=2]>

// "x":(1)2 and "x":(3)2 split the 6-axis incompatibly: they cannot be in one
// sharding, so the operand's sub-axis does not reach the result's other
// dimension, which keeps the function result's.
// CHECK-LABEL: func @incompatible_sub_axes_do_not_meet
// CHECK:       stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(3)2, ?}, {?}]>]>}
func.func @incompatible_sub_axes_do_not_meet(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(1)2}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(3)2}, {}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
