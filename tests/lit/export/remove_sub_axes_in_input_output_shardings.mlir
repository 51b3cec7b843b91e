// RUN: sdy-dsl opt %s -sdy-remove-sub-axes-in-input-output-shardings -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=8, "y"=4, "z"=2]>

// In an open dimension of main's arguments and results, the first sub-axis and
// every axis after it go; closed dimensions, priorities and replicated axes stay,
// and so do the shardings of ops inside.
// CHECK-LABEL: func @main(
// CHECK-SAME:    %arg0: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {"z", ?}], replicated={"x":(2)4}>}
// CHECK-SAME:    -> (tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}p1, {"x":(1)4}]>})
// CHECK-NEXT:    stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x":(1)2, ?}, {?}]>]>}
func.func @main(%arg0: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2, "z", ?}, {?}]>},
                %arg1: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {"z", ?}], replicated={"x":(2)4}>})
    -> (tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(4)2, ?}p1, {"x":(1)4}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x":(1)2, ?}, {?}]>]>} : tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

sdy.mesh @mesh = <["x"=8, "y"=4, "z"=2]>

// Only @main: another function keeps its sub-axes.
// CHECK-LABEL: func private @callee(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}
// CHECK-SAME:    -> (tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>})
// CHECK-LABEL: func @main(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}
func.func private @callee(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) -> (tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) {
  return %arg0 : tensor<64xf32>
}

func.func @main(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2, ?}]>}) -> tensor<64xf32> {
  %0 = call @callee(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

sdy.mesh @mesh = <["x"=8, "y"=4, "z"=2]>

// Without @main, the module's only function is the main one.
// CHECK-LABEL: func @only_function(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}
func.func @only_function(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y", ?}]>}) -> tensor<64xf32> {
  return %arg0 : tensor<64xf32>
}
