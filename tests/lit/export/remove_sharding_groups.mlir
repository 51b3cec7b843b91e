// RUN: sdy-dsl opt %s -sdy-remove-sharding-groups -split-input-file | filecheck %s

// Sharding groups on func args and on op results are erased; shardings are
// left as they are.
// CHECK-LABEL: func @groups_on_args_and_results(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK-NEXT:  return %[[ADD]]
// CHECK-NOT:   sdy.sharding_group
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @groups_on_args_and_results(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// An op whose only user was a sharding group is now dead but is not erased.
// CHECK-LABEL: func @dead_value_stays
// CHECK-NEXT:  stablehlo.negate %arg0 : tensor<8x8xf32>
// CHECK-NEXT:  return %arg0
func.func @dead_value_stays(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=7 : tensor<8x8xf32>
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Groups inside nested regions (manual computation body, while body) go too.
// CHECK-LABEL: func @nested_regions
func.func @nested_regions(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%arg0)
  // CHECK-NEXT:   %[[ABS:.*]] = stablehlo.abs %arg2 : tensor<4x8xf32>
  // CHECK-NEXT:   sdy.return %[[ABS]] : tensor<4x8xf32>
  // CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK-NEXT: %[[WHILE:.*]]:2 = stablehlo.while
  // CHECK-NEXT: cond {
  // CHECK-NEXT:   stablehlo.compare
  // CHECK-NEXT:   stablehlo.return
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   %[[NEG:.*]] = stablehlo.negate
  // CHECK-NEXT:   stablehlo.return %[[NEG]]
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[WHILE]]#0
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
      manual_axes={"x"} (%arg2: tensor<4x8xf32>) {
    sdy.sharding_group %arg2 group_id=2 : tensor<4x8xf32>
    %1 = stablehlo.abs %arg2 : tensor<4x8xf32>
    sdy.sharding_group %1 group_id=2 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %3 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %4 = stablehlo.negate %iterArg : tensor<8x8xf32>
    sdy.sharding_group %4 group_id=3 : tensor<8x8xf32>
    stablehlo.return %4, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %2#0 : tensor<8x8xf32>
}

// -----

// Several funcs, and a group with extra attributes.
// CHECK-LABEL: func @first
// CHECK-NEXT:  return %arg0
func.func @first(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  sdy.sharding_group %arg0 group_id=0 {note = "extra"} : tensor<4xf32>
  return %arg0 : tensor<4xf32>
}

// CHECK-LABEL: func @second
// CHECK-NEXT:  return %arg0
func.func @second(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<4xf32>
  sdy.sharding_group %arg0 group_id=5 : tensor<4xf32>
  return %arg0 : tensor<4xf32>
}

// -----

// Nothing to do without sharding groups.
// CHECK-LABEL: func @no_groups
// CHECK-NEXT:  %[[C:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  return %[[C]]
func.func @no_groups() -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
