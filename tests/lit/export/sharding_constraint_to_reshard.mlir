// RUN: sdy-dsl opt %s -sdy-sharding-constraint-to-reshard -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// The sharding is copied verbatim: open dims, priorities, replicated and
// unreduced axes all survive.
// CHECK-LABEL: func @sharding_copied_verbatim
func.func @sharding_copied_verbatim(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"x", ?}p1, {?}], replicated={"y"}, unreduced={"z"}> : tensor<8x8xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", ?}p1, {?}], replicated={"y"}, unreduced={"z"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Discardable attributes move to the new op.
// CHECK-LABEL: func @discardable_attrs_kept
func.func @discardable_attrs_kept(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.reshard %arg0 <@mesh, [{"x"}, {}]> {mhlo.frontend_attributes = {k = "v"}, tag = 3 : i64} : tensor<8x8xf32>
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> {tag = 3 : i64, mhlo.frontend_attributes = {k = "v"}} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// A chain of constraints: every one is converted and the uses follow.
// Existing reshards stay as they are.
// CHECK-LABEL: func @chain_and_existing_reshard
func.func @chain_and_existing_reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[A]] <@mesh, [{}, {"y"}]>
  // CHECK-NEXT: %[[C:.*]] = sdy.reshard %[[B]] <@mesh, [{"z"}, {"x"}]>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.add %[[C]], %[[A]]
  // CHECK-NEXT: return %[[D]]
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{"z"}, {"x"}]> : tensor<8x8xf32>
  %3 = stablehlo.add %2, %0 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// A constraint without uses is converted, not erased.
// CHECK-LABEL: func @unused_constraint
func.func @unused_constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: return %arg0
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %arg0 : tensor<8x8xf32>
}

// -----

// Inlined meshes, meshes with device ids and maximal meshes are kept as written.
// CHECK-LABEL: func @inlined_and_maximal_meshes
func.func @inlined_and_maximal_meshes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <mesh<["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>, [{"b"}, {"a"}]>
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[A]] <mesh<[], device_ids=[1]>, []>
  // CHECK-NEXT: return %[[B]]
  %0 = sdy.sharding_constraint %arg0 <mesh<["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>, [{"b"}, {"a"}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <mesh<[], device_ids=[1]>, []> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Sub-axes and a scalar constraint.
// CHECK-LABEL: func @sub_axes_and_scalar
func.func @sub_axes_and_scalar(%arg0: tensor<8x8xf32>, %arg1: tensor<f32>) -> (tensor<8x8xf32>, tensor<f32>) {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"x":(2)2}, {"x":(1)2}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %arg1 <@mesh, []> : tensor<f32>
  // CHECK-NEXT: return %[[A]], %[[B]]
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(2)2}, {"x":(1)2}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %arg1 <@mesh, []> : tensor<f32>
  return %0, %1 : tensor<8x8xf32>, tensor<f32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Constraints in nested regions are converted; shardings elsewhere (func
// args, manual computation in/out shardings) are untouched.
// CHECK-LABEL: func @nested_regions(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
func.func @nested_regions(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
  // CHECK-NEXT:   %[[IN:.*]] = sdy.reshard %arg2 <@mesh, [{}, {"y"}]> : tensor<2x8xf32>
  // CHECK-NEXT:   sdy.return %[[IN]]
  // CHECK:      stablehlo.while
  // CHECK:      } do {
  // CHECK-NEXT:   %[[BODY:.*]] = sdy.reshard %iterArg <@mesh, [{"z"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT:   stablehlo.return %[[BODY]]
  // CHECK-NOT:  sdy.sharding_constraint
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
      manual_axes={"x"} (%arg2: tensor<2x8xf32>) {
    %1 = sdy.sharding_constraint %arg2 <@mesh, [{}, {"y"}]> : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %3 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %4 = sdy.sharding_constraint %iterArg <@mesh, [{"z"}, {}]> : tensor<8x8xf32>
    stablehlo.return %4, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %2#0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_a = <["x"=4, "y"=2, "z"=2]>
sdy.mesh @mesh_b = <["w"=8]>

// Several funcs and meshes.
// CHECK-LABEL: func @first
// CHECK-NEXT:  sdy.reshard %arg0 <@mesh_a, [{"x", "y"}, {}]>
func.func @first(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh_a, [{"x", "y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @second
// CHECK-NEXT:  sdy.reshard %arg0 <@mesh_b, [{}, {"w"}]>
func.func @second(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh_b, [{}, {"w"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
