// RUN: sdy-dsl opt %s -sdy-aggressive-propagate=propagation-strategy=basic-then-aggressive | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// The reference's third strategy: a basic run to a fixed point (the negate
// takes "x"; the multiply's factors conflict on "x", basic leaves it), then an
// aggressive one (the larger sharding, "x","y" on dim 1, wins the conflict).
// CHECK-LABEL: func @conflict_resolved_after_basic
// CHECK-SAME:    -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", "y", ?}]>})
// CHECK:       stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK:       stablehlo.multiply %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", "y", ?}]>]>}
func.func @conflict_resolved_after_basic(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                                         %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}) -> tensor<16x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<16x16xf32>
  %1 = stablehlo.multiply %0, %arg1 : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
