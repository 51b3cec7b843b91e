// RUN: sdy-dsl opt %s -sdy-remove-size-one-axes -split-input-file | filecheck %s

// Size-one axes leave dimension shardings of func args, func results and op
// results; open dims stay open. The mesh itself keeps its size-one axes.
// CHECK:      sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>
// CHECK-LABEL: func @dims_of_args_results_and_ops(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {?}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d", "b"}, {}]>})
// CHECK-NEXT:  stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"d", ?}]>]>}
sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

func.func @dims_of_args_results_and_ops(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c", ?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d", "a", "b"}, {"c"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"d", "c", ?}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

// Size-one axes also leave replicated and unreduced axes; an emptied list is
// not printed.
// CHECK-LABEL: func @replicated_and_unreduced(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}], replicated={"d"}>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"b"}>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}
func.func @replicated_and_unreduced(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}], replicated={"a", "c", "d"}>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"a", "b"}>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}], replicated={"a"}, unreduced={"c"}>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

// A dimension emptied by the pass loses its priority if it is closed (an empty
// closed dim cannot have one) and keeps it if it is open.
// CHECK-LABEL: func @priorities(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}p2]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}p0, {"d", ?}p1]>}
func.func @priorities(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p1, {"c", ?}p2]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}p0, {"d", "c", ?}p1]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

// Sub-axes of bigger axes have size > 1 and stay.
// CHECK-LABEL: func @sub_axes_stay
// CHECK-NEXT:  sdy.sharding_constraint %arg0 <@mesh, [{"d":(1)2}, {"b"}], replicated={"d":(2)2}>
func.func @sub_axes_stay(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"d":(1)2, "a"}, {"b"}], replicated={"c", "d":(2)2}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

// in/out shardings of a manual computation and shardings in its body lose
// their size-one axes, but manual_axes is left alone, size-one axes included.
// CHECK-LABEL: func @manual_computation
func.func @manual_computation(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME:   in_shardings=[<@mesh, [{"b"}, {}], replicated={"d"}>]
  // CHECK-SAME:   out_shardings=[<@mesh, [{"b"}, {}], replicated={"d"}>]
  // CHECK-SAME:   manual_axes={"a", "b"}
  // CHECK-NEXT:   stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d", ?}, {?}p2]>]>}
  %0 = sdy.manual_computation(%arg0)
      in_shardings=[<@mesh, [{"a", "b"}, {"c"}], replicated={"d"}>]
      out_shardings=[<@mesh, [{"b", "a"}, {}], replicated={"c", "d"}>]
      manual_axes={"a", "b"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d", ?}, {"c", ?}p2]>]>} : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

// Shardings held by sdy ops (constraint, reshard, data-flow edge, named
// computation, collectives) are cleaned too.
// CHECK-LABEL: func @sdy_ops
func.func @sdy_ops(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0
  // CHECK-NEXT: %[[EDGE:.*]] = sdy.data_flow_edge %[[NEG]] sharding=<@mesh, [{"b"}, {}]>
  // CHECK-NEXT: %[[SC:.*]] = sdy.sharding_constraint %[[EDGE]] <@mesh, [{"b"}, {"d"}]>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reshard %[[SC]] <@mesh, [{"d"}, {"b"}]>
  // CHECK-NEXT: %[[CP:.*]] = sdy.collective_permute %[[RS]] out_sharding=<@mesh, [{"d"}, {"b"}]>
  // CHECK-NEXT: sdy.named_computation<"nc">(%[[CP]]) in_shardings=[<@mesh, [{?}, {"d"}]>] out_shardings=[<@mesh, [{}, {}]>]
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", "b"}, {"c"}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"b", "c"}, {"a", "d"}]> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{"d"}, {"b", "a"}]> : tensor<8x8xf32>
  %4 = sdy.collective_permute %3 out_sharding=<@mesh, [{"c", "d"}, {"b", "a"}]> : tensor<8x8xf32>
  %5 = sdy.named_computation<"nc">(%4) in_shardings=[<@mesh, [{"a", ?}, {"d"}]>] out_shardings=[<@mesh, [{"c"}, {}]>] (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>

// Multi-result ops and ops nested in a while.
// CHECK-LABEL: func @while_loop
func.func @while_loop(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: stablehlo.while
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>, <@mesh, []>]>
  // CHECK:      } do {
  // CHECK-NEXT:   stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "d"}, {}]>]>}
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "a"}, {"c"}]>, <@mesh, [], replicated={"a"}>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "c", "d"}, {"a"}]>]>} : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x8xf32>
}

// -----

// Axis sizes come from the sharding's own mesh: here "a" has size one in one
// mesh but not in the other. Meshes with device ids and inlined meshes are
// handled the same way.
// CHECK:      sdy.mesh @ones = <["a"=1, "b"=2], device_ids=[1, 0]>
// CHECK-NEXT: sdy.mesh @no_ones = <["a"=2, "b"=1]>
// CHECK-LABEL: func @several_meshes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@ones, [{"b"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@no_ones, [{"a"}, {}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=1, "q"=4]>, [{"q"}, {?}]>}
sdy.mesh @ones = <["a"=1, "b"=2], device_ids=[1, 0]>
sdy.mesh @no_ones = <["a"=2, "b"=1]>

func.func @several_meshes(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@ones, [{"a", "b"}, {}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@no_ones, [{"a", "b"}, {}]>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=1, "q"=4]>, [{"p", "q"}, {?}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// A mesh whose axes all have size one: every sharding on it becomes fully
// replicated (open dims stay open; emptied closed dims lose their priority).
// CHECK-LABEL: func @all_axes_size_one(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@tiny, [{}, {?}]>}
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@tiny, [{?}p0, {}]>]>}
sdy.mesh @tiny = <["x"=1, "y"=1]>

func.func @all_axes_size_one(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@tiny, [{"x"}, {?}], replicated={"y"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@tiny, [{"x", ?}p0, {"y"}p1]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Reference quirk: the pass does nothing unless some sdy.mesh op of the module
// has a size-one axis, so size-one axes of inlined meshes survive here...
// CHECK-LABEL: func @no_mesh_op_with_size_one_axis(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<["p"=1, "q"=4]>, [{"p", "q"}, {}]>}
sdy.mesh @mesh = <["x"=2]>

func.func @no_mesh_op_with_size_one_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=1, "q"=4]>, [{"p", "q"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// ...and removed here, where an unused mesh op has a size-one axis.
// CHECK:      sdy.mesh @unused = <["u"=1]>
// CHECK-LABEL: func @unused_mesh_op_with_size_one_axis(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<["p"=1, "q"=4]>, [{"q"}, {}]>}
sdy.mesh @unused = <["u"=1]>

func.func @unused_mesh_op_with_size_one_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=1, "q"=4]>, [{"p", "q"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2]>

// Several funcs; a maximal sharding has no axes to remove.
// CHECK-LABEL: func @first(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}
// CHECK-LABEL: func @second(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b"}>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[2]>, []>}
func.func @first(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func @second(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"b"}>},
                  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[2]>, []>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
