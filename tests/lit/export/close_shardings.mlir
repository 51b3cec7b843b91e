// RUN: sdy-dsl opt %s -sdy-close-shardings -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Open dimensions of a func argument become closed; the `?` is dropped but the
// axes stay in place.
// CHECK-LABEL: func @arg_open_dims_become_closed(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}, {"x"}]>})
// CHECK-SAME:    -> tensor<8x16xf32>
func.func @arg_open_dims_become_closed(
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z", ?}, {"x"}]>})
    -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Func results are closed too, and their replicated axes are dropped.
// CHECK-LABEL: func @result_open_and_replicated(
// CHECK-SAME:    %arg0: tensor<8x16xf32>)
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
// CHECK-SAME:        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
func.func @result_open_and_replicated(%arg0: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}], replicated={"x"}>},
        tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y", "z"}>}) {
  return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Unreduced axes survive; only replicated axes are dropped.
// CHECK-LABEL: func @unreduced_axes_are_kept(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"z"}>}
func.func @unreduced_axes_are_kept(
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}, unreduced={"z"}>})
    -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Priorities of dimensions that keep at least one axis are kept.
// CHECK-LABEL: func @priorities_are_kept(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {"y"}p3]>}
func.func @priorities_are_kept(
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p0, {"y", ?}p3]>})
    -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Sub-axes in dimensions stay; a replicated sub-axis is dropped like any
// replicated axis.
// CHECK-LABEL: func @sub_axes
func.func @sub_axes(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"y"}]>]>}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2, ?}, {"y", ?}], replicated={"x":(2)2}>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Every sharding of a multi-result op is closed. Other attributes of the op,
// including its sharding rule, are left alone.
// CHECK-LABEL: func @multi_result_op_and_other_attrs
func.func @multi_result_op_and_other_attrs(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  // CHECK-NEXT: stablehlo.sort
  // CHECK:      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>]>,
  // CHECK-SAME:   sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i], [i]) {i=8}>,
  // CHECK-SAME:   some_attr = "unchanged"}
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true, some_attr = "unchanged",
      sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>, <@mesh, [{?}], replicated={"y"}>]>,
      sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i], [i]) {i=8}>} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Shardings on ops nested in regions (while body and cond) are closed too.
// CHECK-LABEL: func @nested_regions
func.func @nested_regions(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>) -> tensor<8x16xf32> {
  // CHECK:      stablehlo.while
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, []>]>
  // CHECK:      stablehlo.compare
  // CHECK-SAME:   {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>}
  // CHECK:      stablehlo.negate
  // CHECK-SAME:   {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "z"}, {}]>]>}
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x16xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>, <@mesh, [], replicated={"y"}>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], replicated={"x"}>]>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "z", ?}, {?}]>]>} : tensor<8x16xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x16xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// The sharding held by sdy.sharding_constraint and sdy.reshard is closed.
// CHECK-LABEL: func @constraint_and_reshard
func.func @constraint_and_reshard(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: %[[SC:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reshard %[[SC]] <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  // CHECK-NEXT: return %[[RS]]
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", ?}, {?}], replicated={"z"}> : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@mesh, [{?}, {"y", ?}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// in_shardings and out_shardings of a manual computation are closed (and lose
// their replicated axes), and so are shardings inside its body.
// CHECK-LABEL: func @manual_computation
func.func @manual_computation(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0, %arg1)
  // CHECK-SAME:   in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]
  // CHECK-SAME:   out_shardings=[<@mesh, [{"x"}, {"y"}]>]
  // CHECK-SAME:   manual_axes={"x"}
  // CHECK-NEXT:   stablehlo.add
  // CHECK-SAME:     {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  %0 = sdy.manual_computation(%arg0, %arg1)
      in_shardings=[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{"x"}, {?}], replicated={"y"}>]
      out_shardings=[<@mesh, [{"x", ?}, {"y", ?}]>]
      manual_axes={"x"} (%arg2: tensor<2x16xf32>, %arg3: tensor<2x16xf32>) {
    %1 = stablehlo.add %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>} : tensor<2x16xf32>
    sdy.return %1 : tensor<2x16xf32>
  } : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Replicated axes are dropped even when they are manual axes of the
// computation (manual_axes itself is untouched).
// CHECK-LABEL: func @replicated_manual_axis_dropped
func.func @replicated_manual_axis_dropped(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME:   in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"}
  %0 = sdy.manual_computation(%arg0)
      in_shardings=[<@mesh, [{"x"}, {}], replicated={"y"}>]
      out_shardings=[<@mesh, [{"x"}, {}], replicated={"y"}>]
      manual_axes={"x", "y"} (%arg1: tensor<2x16xf32>) {
    sdy.return %arg1 : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// CHECK-LABEL: func @named_computation
func.func @named_computation(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: sdy.named_computation<"foo">(%arg0)
  // CHECK-SAME:   in_shardings=[<@mesh, [{"x"}, {}]>]
  // CHECK-SAME:   out_shardings=[<@mesh, [{}, {"z"}]>]
  %0 = sdy.named_computation<"foo">(%arg0)
      in_shardings=[<@mesh, [{"x", ?}, {?}], replicated={"y"}>]
      out_shardings=[<@mesh, [{?}, {"z", ?}]>] (%arg1: tensor<8x16xf32>) {
    sdy.return %arg1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// CHECK-LABEL: func @data_flow_edge
func.func @data_flow_edge(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0 : tensor<8x16xf32>
  // CHECK-NEXT: sdy.data_flow_edge %[[NEG]] sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x", ?}, {?}], replicated={"y"}> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// The out_sharding of every sdy collective is closed; the collective's own
// axis lists are not shardings and stay as they are.
// CHECK-LABEL: func @collectives
func.func @collectives(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  // CHECK-NEXT: %[[AG:.*]] = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"z"} %[[AG]] out_sharding=<@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[CP:.*]] = sdy.collective_permute %[[AR]] out_sharding=<@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[AS:.*]] = sdy.all_slice [{}, {"y"}] %[[CP]] out_sharding=<@mesh, [{"x"}, {"y"}]>
  // CHECK-NEXT: %[[A2A:.*]] = sdy.all_to_all [{"y"}: 1->0] %[[AS]] out_sharding=<@mesh, [{"x", "y"}, {}]>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{}, {"z"}] %[[A2A]] out_sharding=<@mesh, [{"x", "y"}, {"z"}]>
  // CHECK-NEXT: return %[[RS]]
  %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x16xf32>
  %1 = sdy.all_reduce {"z"} %0 out_sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x16xf32>
  %2 = sdy.collective_permute %1 out_sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x16xf32>
  %3 = sdy.all_slice [{}, {"y"}] %2 out_sharding=<@mesh, [{"x"}, {"y", ?}]> : tensor<8x16xf32>
  %4 = sdy.all_to_all [{"y"}: 1->0] %3 out_sharding=<@mesh, [{"x", "y", ?}, {?}]> : tensor<8x16xf32>
  %5 = sdy.reduce_scatter [{}, {"z"}] %4 out_sharding=<@mesh, [{"x", "y", ?}, {"z", ?}]> : tensor<8x16xf32>
  return %5 : tensor<8x16xf32>
}

// -----

// An inlined mesh stays inlined; a maximal (rank-0 list) sharding has nothing
// to close.
// CHECK-LABEL: func @inlined_and_maximal_meshes(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<["p"=2, "q"=2], device_ids=[3, 2, 1, 0]>, [{"q"}, {}]>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}
func.func @inlined_and_maximal_meshes(
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=2, "q"=2], device_ids=[3, 2, 1, 0]>, [{"q", ?}, {?}], replicated={"p"}>},
    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>})
    -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// sdy.constant carries its sharding in `sdy.sharding` like any other op.
// CHECK-LABEL: func @sdy_constant
func.func @sdy_constant() -> tensor<8x16xf32> {
  // CHECK-NEXT: sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>} dense<1.0> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh_a = <["x"=4, "y"=2, "z"=2]>
sdy.mesh @mesh_b = <["a"=8]>

// Several meshes and several funcs: every func is visited; meshes are untouched.
// CHECK:      sdy.mesh @mesh_a = <["x"=4, "y"=2, "z"=2]>
// CHECK-NEXT: sdy.mesh @mesh_b = <["a"=8]>

// CHECK-LABEL: func @first(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh_a, [{"x"}, {}]>}
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"a"}, {}]>]>}
func.func @first(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"x", ?}, {?}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: func @second(
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_b, [{}, {}]>})
func.func @second(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_b, [{?}, {?}]>}) {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Values without a sharding do not get one, and closed shardings without
// replicated axes come out unchanged.
// CHECK-LABEL: func @nothing_to_close(
// CHECK-SAME:    %arg0: tensor<8x16xf32>,
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>})
// CHECK-SAME:    -> tensor<8x16xf32> {
// CHECK-NEXT:  stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
func.func @nothing_to_close(
    %arg0: tensor<8x16xf32>,
    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>})
    -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
