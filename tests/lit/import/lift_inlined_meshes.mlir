// RUN: sdy-dsl opt %s -sdy-lift-inlined-meshes -split-input-file | filecheck %s

// Without inlined meshes or duplicates the shardings are unchanged, but every
// sdy.mesh op gets a `stablehlo.mesh` dictionary describing it (axes, and
// device_ids when present). An existing `stablehlo.mesh` attribute is kept
// as is, even if it does not describe the mesh.
// CHECK:      sdy.mesh @plain = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @with_ids = <["x"=2], device_ids=[1, 0]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}], device_ids = dense<[1, 0]> : tensor<2xi64>}}
// CHECK-NEXT: sdy.mesh @maximal = <[], device_ids=[4]> {stablehlo.mesh = {axes = [], device_ids = dense<4> : tensor<1xi64>}}
// CHECK-NEXT: sdy.mesh @annotated = <["z"=8]> {stablehlo.mesh = {whatever = 1 : i64}}
// CHECK-LABEL: func @no_inlined_meshes(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@plain, [{"x"}, {"y"}]>}
sdy.mesh @plain = <["x"=2, "y"=4]>
sdy.mesh @with_ids = <["x"=2], device_ids=[1, 0]>
sdy.mesh @maximal = <[], device_ids=[4]>
sdy.mesh @annotated = <["z"=8]> {stablehlo.mesh = {whatever = 1 : i64}}

func.func @no_inlined_meshes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@plain, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// A mesh op whose mesh equals that of an earlier mesh op is erased (used or
// not, whatever attributes it has), and references to it now point to the
// earlier one. Unused meshes that are not duplicates stay.
// CHECK:      sdy.mesh @first = <["x"=2, "y"=2]>
// CHECK-NEXT: sdy.mesh @other = <["x"=4]>
// CHECK-NOT:  sdy.mesh
// CHECK-LABEL: func @duplicate_meshes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@first, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@first, [{}, {"y"}]>})
// CHECK-NEXT:  sdy.sharding_constraint %arg0 <@first, [{"y"}, {"x"}]>
sdy.mesh @first = <["x"=2, "y"=2]>
sdy.mesh @second = <["x"=2, "y"=2]>
sdy.mesh @other = <["x"=4]>
sdy.mesh @third = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = []}}

func.func @duplicate_meshes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@second, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@third, [{}, {"y"}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@second, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// An inlined mesh equal to an existing mesh op reuses that op. Device ids are
// part of the mesh: the same axes with an explicit device order is another mesh.
// CHECK:      sdy.mesh @existing = <["a"=4]>
// CHECK-NEXT: sdy.mesh @mesh = <["a"=4], device_ids=[3, 2, 1, 0]> {stablehlo.mesh = {axes = [{name = "a", size = 4 : i64}], device_ids = dense<[3, 2, 1, 0]> : tensor<4xi64>}}
// CHECK-LABEL: func @reuse_existing_mesh(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@existing, [{"a"}]>},
// CHECK-SAME:    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
sdy.mesh @existing = <["a"=4]>

func.func @reuse_existing_mesh(
    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=4]>, [{"a"}]>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=4], device_ids=[3, 2, 1, 0]>, [{"a"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// With no mesh op in the module, new meshes go at the start of the module.
// Names: `mesh`, then `mesh_0`, `mesh_1`, ...; one op per distinct mesh.
// CHECK:      module {
// CHECK-NEXT:   sdy.mesh @mesh = <["p"=2]>
// CHECK-NEXT:   sdy.mesh @mesh_0 = <["q"=2]>
// CHECK-NEXT:   sdy.mesh @mesh_1 = <["p"=2, "q"=2]>
// CHECK-NEXT:   func.func @fresh_names(
// CHECK-SAME:     %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"p"}, {}]>}
// CHECK-SAME:     %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{}, {"q"}]>}
// CHECK-SAME:     -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"p"}]>})
// CHECK-NEXT:   stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{"p", "q"}, {}]>]>}
func.func @fresh_names(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=2]>, [{"p"}, {}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["q"=2]>, [{}, {"q"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=2]>, [{}, {"p"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["p"=2, "q"=2]>, [{"p", "q"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A maximal mesh is named after its device id; an empty mesh is `empty_mesh`.
// CHECK:      sdy.mesh @maximal_mesh_7 = <[], device_ids=[7]> {stablehlo.mesh = {axes = [], device_ids = dense<7> : tensor<1xi64>}}
// CHECK-NEXT: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
// CHECK-NOT:  sdy.mesh
// CHECK-LABEL: func @maximal_and_empty_meshes(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@maximal_mesh_7, []>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}
// CHECK-NEXT:  stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_7, []>]>}
func.func @maximal_and_empty_meshes(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[7]>, []>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[0]>, []>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[]>, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[7]>, []>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Taken names get a `_N` suffix from one counter shared by all new meshes
// of the module: `maximal_mesh_3` is taken, so the maximal mesh becomes
// `maximal_mesh_3_0`; the counter is then at 1, so the next plain mesh is
// `mesh_1` although `mesh_0` is free. New ops go right after the last mesh op.
// CHECK:      sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT: sdy.mesh @maximal_mesh_3 = <["z"=2]>
// CHECK-NEXT: sdy.mesh @maximal_mesh_3_0 = <[], device_ids=[3]>
// CHECK-NEXT: sdy.mesh @mesh_1 = <["y"=2]>
// CHECK-NEXT: sdy.mesh @mesh_2 = <["w"=2]>
// CHECK-NEXT: func.func @shared_suffix_counter(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@maximal_mesh_3_0, []>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh_1, [{"y"}]>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh_2, [{"w"}]>}
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_3 = <["z"=2]>

func.func @shared_suffix_counter(
    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["y"=2]>, [{"y"}]>},
    %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["w"=2]>, [{"w"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// Any symbol counts as taken, including a func named `mesh`. New mesh ops are
// inserted after the last mesh op, even when funcs come before it.
// CHECK:      func.func @mesh(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh_0, [{"a"}]>}
// CHECK:      sdy.mesh @late = <["b"=2]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["a"=2]>
// CHECK-NEXT: sdy.mesh @mesh_1 = <["c"=2]>
// CHECK-NEXT: func.func @after_late_mesh(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh_1, [{"c"}]>}
func.func @mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

sdy.mesh @late = <["b"=2]>

func.func @after_late_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["c"=2]>, [{"c"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// When the last mesh op is an erased duplicate, new meshes go after the last
// mesh op that stays.
// CHECK:      sdy.mesh @kept = <["x"=2]>
// CHECK-NEXT: sdy.mesh @mesh = <["n"=2]>
// CHECK-NEXT: func.func @before
// CHECK:      func.func @after(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@kept, [{"x"}]>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"n"}]>}
sdy.mesh @kept = <["x"=2]>

func.func @before(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

sdy.mesh @dropped_duplicate = <["x"=2]>

func.func @after(
    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@dropped_duplicate, [{"x"}]>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["n"=2]>, [{"n"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// The name of an erased duplicate is free again and may go to a new mesh;
// references to the erased duplicate still go to the mesh it duplicated.
// CHECK:      sdy.mesh @a = <["x"=2]>
// CHECK-NEXT: sdy.mesh @mesh = <["y"=2]>
// CHECK-NEXT: func.func @erased_duplicate_name_reused(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}
// CHECK-SAME:    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}]>}
sdy.mesh @a = <["x"=2]>
sdy.mesh @mesh = <["x"=2]>

func.func @erased_duplicate_name_reused(
    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["y"=2]>, [{"y"}]>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// New meshes are created in walk order: func args, func results, then ops in
// pre-order; for a manual computation, in_shardings, out_shardings, then body.
// CHECK:      sdy.mesh @mesh = <["arg"=2]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["res"=2]>
// CHECK-NEXT: sdy.mesh @mesh_1 = <["in"=2]>
// CHECK-NEXT: sdy.mesh @mesh_2 = <["out"=2]>
// CHECK-NEXT: sdy.mesh @mesh_3 = <["body"=2]>
// CHECK-NEXT: sdy.mesh @mesh_4 = <["after"=2]>
// CHECK-LABEL: func @walk_order(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh_0, [{}]>}
// CHECK-NEXT:  sdy.manual_computation(%arg0) in_shardings=[<@mesh_1, [{}]>] out_shardings=[<@mesh_2, [{}]>] manual_axes={}
// CHECK-NEXT:    stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_3, [{}]>]>}
// CHECK:       stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh_4, [{}]>]>}
func.func @walk_order(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["arg"=2]>, [{}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["res"=2]>, [{}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<mesh<["in"=2]>, [{}]>] out_shardings=[<mesh<["out"=2]>, [{}]>]
      manual_axes={} (%arg1: tensor<8xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["body"=2]>, [{}]>]>} : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["after"=2]>, [{}]>]>} : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Meshes inlined in sdy ops are lifted as well.
// CHECK:      sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["x"=4]>
// CHECK-NEXT: sdy.mesh @mesh_1 = <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>
// CHECK-LABEL: func @sdy_ops
func.func @sdy_ops(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0
  // CHECK-NEXT: %[[EDGE:.*]] = sdy.data_flow_edge %[[NEG]] sharding=<@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[SC:.*]] = sdy.sharding_constraint %[[EDGE]] <@mesh_0, [{"x"}, {}]>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reshard %[[SC]] <@mesh_1, [{"y"}, {"x"}]>
  // CHECK-NEXT: %[[AG:.*]] = sdy.all_gather [{"y"}, {}] %[[RS]] out_sharding=<@mesh_1, [{}, {"x"}]>
  // CHECK-NEXT: sdy.named_computation<"nc">(%[[AG]]) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh_0, [{}, {"x"}]>]
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<mesh<["x"=2, "y"=2]>, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <mesh<["x"=4]>, [{"x"}, {}]> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <mesh<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>, [{"y"}, {"x"}]> : tensor<8x8xf32>
  %4 = sdy.all_gather [{"y"}, {}] %3 out_sharding=<mesh<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>, [{}, {"x"}]> : tensor<8x8xf32>
  %5 = sdy.named_computation<"nc">(%4) in_shardings=[<mesh<["x"=2, "y"=2]>, [{?}, {?}]>] out_shardings=[<mesh<["x"=4]>, [{}, {"x"}]>] (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}

// -----

// Shardings of multi-result ops and of ops nested in while regions; the rest
// of each sharding (open dims, priorities, replicated, unreduced) is kept.
// CHECK:      sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["k"=4]>
// CHECK-LABEL: func @while_loop
func.func @while_loop(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: stablehlo.while
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}p2, {?}], replicated={"y"}>, <@mesh, []>]>
  // CHECK:      } do {
  // CHECK-NEXT:   stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"k":(1)2}, {}], unreduced={"k":(2)2}>]>}
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{"x", ?}p2, {?}], replicated={"y"}>, <mesh<["x"=2, "y"=2]>, []>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<mesh<["k"=4]>, [{"k":(1)2}, {}], unreduced={"k":(2)2}>]>} : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x8xf32>
}

// -----

// Several funcs share the lifted meshes.
// CHECK:      sdy.mesh @mesh = <["d"=8]>
// CHECK-NOT:  sdy.mesh
// CHECK-LABEL: func @first(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}
// CHECK-LABEL: func @second(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}]>]>}
func.func @first(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["d"=8]>, [{"d"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func @second(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["d"=8]>, [{}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["d"=8]>, [{"d"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Meshes in the `replica_groups` of stablehlo collectives: a reference to an
// erased duplicate is redirected, and an inlined #stablehlo.mesh becomes a new
// mesh op. These are handled after all shardings, one op kind at a time
// (all_gather before all_to_all), not in program order.
// CHECK:      sdy.mesh @m = <["x"=2]>
// CHECK-NEXT: sdy.mesh @mesh = <["s"=2]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["g"=2]>
// CHECK-NEXT: sdy.mesh @mesh_1 = <["t"=2]>
// CHECK-NOT:  sdy.mesh
// CHECK-LABEL: func @replica_groups
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{"s"}]>}
// CHECK-NEXT:  "stablehlo.all_to_all"(%arg0)
// CHECK-SAME:    replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x">]>
// CHECK-NEXT:  "stablehlo.all_to_all"(%arg0)
// CHECK-SAME:    replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_1, axes = [#stablehlo.axis_ref<name = "t">]>
// CHECK-NEXT:  "stablehlo.all_gather"(%arg0)
// CHECK-SAME:    replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "g">]>
sdy.mesh @m = <["x"=2]>
sdy.mesh @m_copy = <["x"=2]>

func.func @replica_groups(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<mesh<["s"=2]>, [{"s"}]>}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m_copy, axes = [#stablehlo.axis_ref<name = "x">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "t", size = 2>]>, axes = [#stablehlo.axis_ref<name = "t">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "g", size = 2>]>, axes = [#stablehlo.axis_ref<name = "g">]>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Reference quirks for #stablehlo.mesh in replica groups: its device ids are
// not carried over to the new mesh op, and it is never matched against
// existing sdy meshes, so an identical sdy.mesh op can appear twice.
// CHECK:      sdy.mesh @m = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh_0 = <["z"=2]> {stablehlo.mesh = {axes = [{name = "z", size = 2 : i64}]}}
// CHECK-LABEL: func @replica_group_mesh_quirks
// CHECK-NEXT:  replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes
// CHECK-NEXT:  replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes
sdy.mesh @m = <["x"=2]>

func.func @replica_group_mesh_quirks(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>]>, axes = [#stablehlo.axis_ref<name = "x">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "z", size = 2>], device_ids=dense<[1, 0]> : tensor<2xi64>>, axes = [#stablehlo.axis_ref<name = "z">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
