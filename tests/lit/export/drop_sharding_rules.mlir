// RUN: sdy-dsl opt %s -sdy-drop-sharding-rules -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Only `sdy.sharding_rule` goes; the sharding and unrelated attributes stay.
// CHECK-LABEL: func @rule_dropped_other_attrs_kept
func.func @rule_dropped_other_attrs_kept(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: stablehlo.negate %arg0 {mhlo.frontend_attributes = {k = "v"}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {}]>]>} : tensor<8x8xf32>
  %0 = stablehlo.negate %arg0 {mhlo.frontend_attributes = {k = "v"},
                               sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {}]>]>,
                               sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A rule marked `custom` was written by the user and is kept.
// CHECK-LABEL: func @custom_rule_kept
func.func @custom_rule_kept(%arg0: tensor<8x8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: stablehlo.custom_call @my_reduce(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=8} reduction={j}, custom>}
  %0 = stablehlo.custom_call @my_reduce(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=8} reduction={j}, custom>} : (tensor<8x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rules with special factors (reduction, need_replication, permutation,
// blocked_propagation) are dropped like any other non-custom rule.
// CHECK-LABEL: func @rules_with_special_factors
func.func @rules_with_special_factors(%arg0: tensor<8x8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[A:.*]] = stablehlo.custom_call @a(%arg0) : (tensor<8x8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.custom_call @b(%arg0) : (tensor<8x8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: %[[C:.*]] = stablehlo.custom_call @c(%arg0) : (tensor<8x8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: stablehlo.add %[[A]], %[[B]] : tensor<8xf32>
  // CHECK-NOT:  sdy.sharding_rule
  %0 = stablehlo.custom_call @a(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=8} reduction={j} need_replication={i}>} : (tensor<8x8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @b(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=8} permutation={j}>} : (tensor<8x8xf32>) -> tensor<8xf32>
  %2 = stablehlo.custom_call @c(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=8} blocked_propagation={j}>} : (tensor<8x8xf32>) -> tensor<8xf32>
  %3 = stablehlo.add %0, %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} : tensor<8xf32>
  %4 = stablehlo.add %3, %2 : tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// Rules on ops inside regions (case branches, while body) are dropped too.
// CHECK-LABEL: func @nested_regions
func.func @nested_regions(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK:      "stablehlo.case"(%arg1)
  // CHECK-NEXT:   stablehlo.abs %arg0 : tensor<8x8xf32>
  // CHECK:        stablehlo.negate %arg0 : tensor<8x8xf32>
  // CHECK:      stablehlo.while
  // CHECK:        stablehlo.compare LT, %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK:        stablehlo.add %{{.*}}, %{{.*}} : tensor<8x8xf32>
  // CHECK-NOT:  sdy.sharding_rule
  %0 = "stablehlo.case"(%arg1) ({
    %1 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }, {
    %2 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    stablehlo.return %2 : tensor<8x8xf32>
  }) : (tensor<i32>) -> tensor<8x8xf32>
  %3:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %iterArg_0 {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %5 = stablehlo.add %iterArg, %iterArg {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    stablehlo.return %5, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %3#0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Bodies of manual and named computations are visited.
// CHECK-LABEL: func @manual_and_named_computation_bodies
func.func @manual_and_named_computation_bodies(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK:      sdy.manual_computation
  // CHECK-NEXT:   stablehlo.abs %arg1 : tensor<2x8xf32>
  // CHECK:      sdy.named_computation<"inner">
  // CHECK-NEXT:   stablehlo.negate %arg1 : tensor<8x8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
      manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=8}>} : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.named_computation<"inner">(%0) (%arg1: tensor<8x8xf32>) {
    %3 = stablehlo.negate %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    sdy.return %3 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Every func in the module is handled; ops without a rule are unchanged.
// CHECK-LABEL: func @first
// CHECK-NEXT:  stablehlo.dot %arg0, %arg1 : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
func.func @first(%arg0: tensor<8x4xf32>, %arg1: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=8, k=4}>} : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @second
// CHECK-NEXT:  stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  stablehlo.negate %{{.*}} {some.attr} : tensor<4x8xf32>
func.func @second(%arg0: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.negate %0 {some.attr} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
