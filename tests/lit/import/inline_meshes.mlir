// RUN: sdy-dsl opt %s -sdy-inline-meshes -split-input-file | filecheck %s

// A mesh referenced from func args, results and op shardings is inlined into
// each of them, and the sdy.mesh op disappears.
// CHECK-NOT:   sdy.mesh
// CHECK-LABEL: func @args_results_and_ops(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x", ?}p1, {}], replicated={"y"}>})
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{}, {"y"}], unreduced={"x"}>})
// CHECK-NEXT:  stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"y":(1)2}, {?}]>]>}
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @args_results_and_ops(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {}], replicated={"y"}>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}], unreduced={"x"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y":(1)2}, {?}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Every sdy.mesh op is erased, including unused ones and ones that sit between
// funcs; the discardable attributes of a mesh op go with it.
// CHECK:       module {
// CHECK-NEXT:    func.func @unused_meshes_removed(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:      return %arg0
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @another_func
// CHECK-NEXT:      return %arg0
// CHECK-NEXT:    }
// CHECK-NEXT:  }
sdy.mesh @unused_a = <["a"=2]>
sdy.mesh @unused_b = <["b"=4], device_ids=[3, 2, 1, 0]> {stablehlo.mesh = {axes = []}}

func.func @unused_meshes_removed(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

sdy.mesh @unused_c = <[], device_ids=[0]>

func.func @another_func(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// Shardings whose mesh is already inlined are unchanged.
// CHECK-LABEL: func @already_inlined(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<["p"=4]>, [{"p"}, {}]>}
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["q"=2], device_ids=[1, 0]>, [{}, {"q"}]>]>}
func.func @already_inlined(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["p"=4]>, [{"p"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["q"=2], device_ids=[1, 0]>, [{}, {"q"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Maximal meshes, empty meshes and meshes with device ids are inlined as is.
// CHECK-NOT:   sdy.mesh
// CHECK-LABEL: func @special_meshes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[5]>, []>},
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[]>, [{}, {}]>},
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2], device_ids=[3, 1, 2, 0]>, [{"y"}, {"x"}]>})
sdy.mesh @maximal = <[], device_ids=[5]>
sdy.mesh @empty = <[]>
sdy.mesh @reordered = <["x"=2, "y"=2], device_ids=[3, 1, 2, 0]>

func.func @special_meshes(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty, [{}, {}]>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@reordered, [{"y"}, {"x"}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// Shardings held by sdy ops are inlined too.
// CHECK-LABEL: func @sdy_ops
func.func @sdy_ops(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0
  // CHECK-NEXT: %[[EDGE:.*]] = sdy.data_flow_edge %[[NEG]] sharding=<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>
  // CHECK-NEXT: %[[SC:.*]] = sdy.sharding_constraint %[[EDGE]] <mesh<["x"=2, "y"=4]>, [{"x"}, {"y"}]>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reshard %[[SC]] <mesh<["x"=2, "y"=4]>, [{"y"}, {"x"}]>
  // CHECK-NEXT: %[[AG:.*]] = sdy.all_gather [{"y"}, {}] %[[RS]] out_sharding=<mesh<["x"=2, "y"=4]>, [{}, {"x"}]>
  // CHECK-NEXT: return %[[AG]]
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  %4 = sdy.all_gather [{"y"}, {}] %3 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// in/out shardings of manual and named computations, and shardings in their
// bodies, are inlined.
// CHECK-LABEL: func @manual_and_named_computation
func.func @manual_and_named_computation(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME:   in_shardings=[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]
  // CHECK-SAME:   out_shardings=[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]
  // CHECK-SAME:   manual_axes={"x"}
  // CHECK-NEXT:   stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{}, {"y"}]>]>}
  // CHECK:      sdy.named_computation<"named">
  // CHECK-SAME:   in_shardings=[<mesh<["x"=2, "y"=4]>, [{?}, {?}]>]
  // CHECK-SAME:   out_shardings=[<mesh<["x"=2, "y"=4]>, [{"y"}, {}]>]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
      manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.named_computation<"named">(%0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// Shardings of multi-result ops and of ops inside a while are inlined.
// CHECK-LABEL: func @while_loop
func.func @while_loop(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: stablehlo.while
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>, <mesh<["x"=2, "y"=4]>, []>]>
  // CHECK:      } do {
  // CHECK-NEXT:   stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x", "y"}, {}]>]>}
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, []>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x8xf32>
}

// -----

// Several meshes across several funcs: each reference gets its own mesh.
// CHECK-NOT:   sdy.mesh
// CHECK-LABEL: func @uses_mesh_a(
// CHECK-SAME:    {sdy.sharding = #sdy.sharding<mesh<["a"=4]>, [{"a"}]>}
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["b"=2, "c"=2]>, [{"c"}]>]>}
// CHECK-LABEL: func @uses_mesh_b(
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["b"=2, "c"=2]>, [{"b", "c"}]>})
sdy.mesh @mesh_a = <["a"=4]>
sdy.mesh @mesh_b = <["b"=2, "c"=2]>

func.func @uses_mesh_a(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"c"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @uses_mesh_b(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_b, [{"b", "c"}]>}) {
  return %arg0 : tensor<8xf32>
}
