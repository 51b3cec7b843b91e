// RUN: sdy-dsl opt %s -sdy-constant-or-scalar-merger -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Two equal constants become one; a different value stays.
// CHECK-LABEL: func @equal_constants_merge
// CHECK-NEXT:    %[[ONE:.*]] = sdy.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[TWO:.*]] = sdy.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = stablehlo.add %[[ONE]], %[[ONE]]
// CHECK-NEXT:    stablehlo.add %[[SUM]], %[[TWO]]
func.func @equal_constants_merge() -> tensor<4xf32> {
  %0 = sdy.constant dense<1.000000e+00> : tensor<4xf32>
  %1 = sdy.constant dense<1.000000e+00> : tensor<4xf32>
  %2 = sdy.constant dense<2.000000e+00> : tensor<4xf32>
  %3 = stablehlo.add %0, %1 : tensor<4xf32>
  %4 = stablehlo.add %3, %2 : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The sharding is part of the key: only the copies with the same sharding merge.
// CHECK-LABEL: func @different_shardings_stay
// CHECK-NEXT:    %[[X:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
// CHECK-NEXT:    %[[Y:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
// CHECK-NEXT:    %[[SUM:.*]] = stablehlo.add %[[X]], %[[Y]]
// CHECK-NEXT:    stablehlo.add %[[SUM]], %[[X]]
func.func @different_shardings_stay(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<1.000000e+00> : tensor<8xf32>
  %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<1.000000e+00> : tensor<8xf32>
  %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<1.000000e+00> : tensor<8xf32>
  %3 = stablehlo.add %0, %1 : tensor<8xf32>
  %4 = stablehlo.add %3, %2 : tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// The key is the attribute dictionary, not the op name: a constant-like op of
// another kind with the same attributes merges into the first.
// CHECK-LABEL: func @constant_kinds_with_equal_attributes_merge
// CHECK-NEXT:    %[[C:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %[[C]], %[[C]]
func.func @constant_kinds_with_equal_attributes_merge() -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %1 = sdy.constant dense<1.000000e+00> : tensor<4xf32>
  %2 = stablehlo.add %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Constants merge within their block only: the loop body keeps its own.
// CHECK-LABEL: func @nested_blocks_merge_inside_only
// CHECK-NEXT:    %[[OUTER:.*]] = sdy.constant dense<1> : tensor<i32>
// CHECK:         } do {
// CHECK-NEXT:      %[[INNER:.*]] = sdy.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %[[A:.*]] = stablehlo.add %iterArg, %[[INNER]]
// CHECK-NEXT:      stablehlo.add %[[A]], %[[INNER]]
// CHECK:         stablehlo.add %{{.*}}, %[[OUTER]]
func.func @nested_blocks_merge_inside_only(%arg0: tensor<i32>) -> tensor<i32> {
  %c = sdy.constant dense<1> : tensor<i32>
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
   cond {
    %c_0 = sdy.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
   } do {
    %c_1 = sdy.constant dense<1> : tensor<i32>
    %c_2 = sdy.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    %2 = stablehlo.add %1, %c_2 : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }
  %3 = stablehlo.add %0, %c : tensor<i32>
  return %3 : tensor<i32>
}

// -----

// Broadcasts of the same scalar to the same type merge; another operand, another
// result type, or a non-scalar operand keep theirs.
// CHECK-LABEL: func @scalar_broadcasts
// CHECK-NEXT:    %[[B0:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[B1:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[V:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R0:.*]] = stablehlo.broadcast_in_dim %[[V]], dims = [1]
// CHECK-NEXT:    %[[R1:.*]] = stablehlo.broadcast_in_dim %[[V]], dims = [1]
// CHECK-NEXT:    stablehlo.add %[[B0]], %[[B0]]
func.func @scalar_broadcasts(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<2x4xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %1 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %2 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %3 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %5 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %6 = stablehlo.add %0, %1 : tensor<2x4xf32>
  %7 = stablehlo.add %6, %2 : tensor<2x4xf32>
  %8 = stablehlo.add %7, %4 : tensor<2x4xf32>
  %9 = stablehlo.add %8, %5 : tensor<2x4xf32>
  return %9 : tensor<2x4xf32>
}

// -----

// Merging two scalar constants makes their broadcasts equal: they merge too.
// CHECK-LABEL: func @merged_constants_make_broadcasts_equal
// CHECK-NEXT:    %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = []
// CHECK-NEXT:    stablehlo.add %[[B]], %[[B]]
func.func @merged_constants_make_broadcasts_equal() -> tensor<2x4xf32> {
  %0 = sdy.constant dense<1.000000e+00> : tensor<f32>
  %1 = sdy.constant dense<1.000000e+00> : tensor<f32>
  %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %4 = stablehlo.add %2, %3 : tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}
