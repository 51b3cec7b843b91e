// RUN: sdy-dsl opt %s -mpmd-lower-to-fragment-calls -split-input-file --allow-unregistered-dialect | filecheck %s

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// Different bodies: one function each, carrying the mesh shape and the
// fragment's `reserved_hbm_bytes`; `remat` stays on its call only.
// CHECK-NOT: xla_tpu_user_reserved_hbm_bytes
// CHECK-LABEL: func @different_bodies
func.func @different_bodies(%arg0: !m1, %arg1: !m1) -> !m1 attributes {
    "topology"=#mpmd.topology<<"m1": <["x"=4]>>>} {
  // CHECK-NEXT: %[[C0:.*]] = mpmd.fragment_call<mesh="m1", origin=["f1"]> @p0_f1.main(%arg0, %arg1) {remat} : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
  %0 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0, %arg1) {reserved_hbm_bytes = 256 : i64, remat}
    (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    %s = stablehlo.add %a, %b : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1, !m1) -> !m1
  // CHECK-NEXT: %[[C1:.*]] = mpmd.fragment_call<mesh="m1", origin=["f1"]> @p1_f1.main(%[[C0]], %arg1) :
  %1 = mpmd.fragment<mesh="m1", origin=["f1"]> (%0, %arg1) {reserved_hbm_bytes = 128 : i64}
    (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    %p = stablehlo.multiply %a, %b : tensor<4x8xf32>
    mpmd.return %p : tensor<4x8xf32>
  } : (!m1, !m1) -> !m1
  // CHECK-NEXT: return %[[C1]]
  return %1 : !m1
}
// CHECK:      func @p0_f1.main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:     attributes {mesh_shape = #sdy.mesh<["x"=4]>, reserved_hbm_bytes = 256 : i64} {
// CHECK-NEXT:   %[[ADD:.*]] = stablehlo.add %arg0, %arg1 : tensor<4x8xf32>
// CHECK-NEXT:   return %[[ADD]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK:      func @p1_f1.main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:     attributes {mesh_shape = #sdy.mesh<["x"=4]>, reserved_hbm_bytes = 128 : i64} {
// CHECK-NEXT:   %[[MUL:.*]] = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf32>
// CHECK-NEXT:   return %[[MUL]] : tensor<4x8xf32>
// CHECK-NEXT: }

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// Equivalent fragments (locations and origins aside) share one function; the
// group keeps the largest reserved bytes, absent values ignored.
// CHECK-LABEL: func @equivalent_fragments_share_a_function
func.func @equivalent_fragments_share_a_function(%arg0: !m1) -> !m1 attributes {
    "topology"=#mpmd.topology<<"m1": <["x"=4]>>>} {
  // CHECK-NEXT: %[[C0:.*]] = mpmd.fragment_call<mesh="m1", origin=["f1"]> @p0_f1.main(%arg0)
  %0 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) {reserved_hbm_bytes = 64 : i64}
    (%a: tensor<4x8xf32>) {
    %s = stablehlo.abs %a : tensor<4x8xf32> loc("first")
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  // CHECK-NEXT: %[[C1:.*]] = mpmd.fragment_call<mesh="m1", origin=["f2"]> @p0_f1.main(%[[C0]])
  %1 = mpmd.fragment<mesh="m1", origin=["f2"]> (%0) {reserved_hbm_bytes = 512 : i64}
    (%a: tensor<4x8xf32>) {
    %s = stablehlo.abs %a : tensor<4x8xf32> loc("second")
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  // CHECK-NEXT: %[[C2:.*]] = mpmd.fragment_call<mesh="m1", origin=["f3"]> @p0_f1.main(%[[C1]])
  %2 = mpmd.fragment<mesh="m1", origin=["f3"]> (%1)
    (%a: tensor<4x8xf32>) {
    %s = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  return %2 : !m1
}
// CHECK:      func @p0_f1.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:     attributes {mesh_shape = #sdy.mesh<["x"=4]>, reserved_hbm_bytes = 512 : i64}
// CHECK-NOT:  func.func

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>

// The same body on another mesh, even of the same shape, gets its own function.
// CHECK-LABEL: func @same_body_other_mesh
func.func @same_body_other_mesh(%arg0: !m1) -> !m2 attributes {
    "topology"=#mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>} {
  // CHECK-NEXT: mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.main(%arg0)
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  // CHECK-NEXT: %[[T:.*]] = mpmd.transfer
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  // CHECK-NEXT: mpmd.fragment_call<mesh="m2", origin=["f"]> @p1_f.main(%[[T]])
  %2 = mpmd.fragment<mesh="m2", origin=["f"]> (%1) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m2) -> !m2
  return %2 : !m2
}
// CHECK: func @p0_f.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=4]>}
// CHECK: func @p1_f.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=4]>}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Only `reserved_hbm_bytes` is read on fragments: the old
// `xla_tpu_user_reserved_hbm_bytes` is not, so the function gets no
// reserved bytes at all.
// CHECK-LABEL: func @old_reserved_bytes_name_is_not_read
func.func @old_reserved_bytes_name_is_not_read(%arg0: !m) -> !m attributes {
    "topology"=#mpmd.topology<<"m": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%arg0) :
  %0 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) {xla_tpu_user_reserved_hbm_bytes = 64 : i64} (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  return %0 : !m
}
// CHECK: func @p0_f.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Bodies that differ only in the order of the returned values, or in an
// unused block argument, are not equivalent.
// CHECK-LABEL: func @operand_order_and_block_arguments_count
func.func @operand_order_and_block_arguments_count(%arg0: !m) -> (!m, !m) attributes {
    "topology"=#mpmd.topology<<"m": <["x"=2, "y"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%arg0)
  %0:2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    %s = stablehlo.subtract %a, %a : tensor<4x8xf32>
    %d = stablehlo.divide %a, %a : tensor<4x8xf32>
    mpmd.return %d, %s : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!m) -> (!m, !m)
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p1_f.main(%arg0)
  %1:2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    %s = stablehlo.subtract %a, %a : tensor<4x8xf32>
    %d = stablehlo.divide %a, %a : tensor<4x8xf32>
    mpmd.return %s, %d : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!m) -> (!m, !m)
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p2_f.main(%arg0, %arg0)
  %2:2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0, %arg0) (%a: tensor<4x8xf32>, %unused: tensor<4x8xf32>) {
    %s = stablehlo.subtract %a, %a : tensor<4x8xf32>
    %d = stablehlo.divide %a, %a : tensor<4x8xf32>
    mpmd.return %s, %d : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!m, !m) -> (!m, !m)
  return %1#0, %2#1 : !m, !m
}
// CHECK:      func @p0_f.main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-SAME:     attributes {mesh_shape = #sdy.mesh<["x"=2, "y"=2]>} {
// CHECK-NEXT:   %[[S:.*]] = stablehlo.subtract %arg0, %arg0
// CHECK-NEXT:   %[[D:.*]] = stablehlo.divide %arg0, %arg0
// CHECK-NEXT:   return %[[D]], %[[S]]
// CHECK:      func @p1_f.main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:        return %[[S:.*]], %[[D:.*]] :
// CHECK:      func @p2_f.main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Argument and result attributes take part in equivalence and move to the function.
// CHECK-LABEL: func @arg_and_res_attrs
func.func @arg_and_res_attrs(%arg0: !m) -> (!m, !m) attributes {
    "topology"=#mpmd.topology<<"m": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%arg0) :
  %0 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
    {arg_attrs = [{tf.aliasing_output = 0 : i32}], res_attrs = [{mhlo.layout_mode = "default"}]} (%a: tensor<4x8xf32>) {
    %1 = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %1 : tensor<4x8xf32>
  } : (!m) -> !m
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p1_f.main(%arg0) :
  %2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    %3 = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %3 : tensor<4x8xf32>
  } : (!m) -> !m
  return %0, %2 : !m, !m
}
// CHECK: func @p0_f.main(%arg0: tensor<4x8xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4x8xf32> {mhlo.layout_mode = "default"})
// CHECK: func @p1_f.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32>

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Naming: the `jit_` prefix of the module name goes; a stage names the
// fragment; with a backward origin the phases are appended; counters of
// origins collapse into a range; no origin is `inferred`.
// CHECK-LABEL: module @jit_my_model
module @jit_my_model {
  // CHECK-LABEL: func @main
  func.func @main(%arg0: !m) -> (!m, !m, !m, !m) attributes {
      "topology"=#mpmd.topology<<"m": <["x"=4]>>>} {
    // CHECK-NEXT: @p0_stage3_fwd.my_model(%arg0)
    %0 = mpmd.fragment<mesh="m", origin=["block"], stage=3> (%arg0) (%a: tensor<4x8xf32>) {
      mpmd.return %a : tensor<4x8xf32>
    } : (!m) -> !m
    // CHECK-NEXT: @"p1_block_2:1_bwd.my_model"(%arg0)
    %1 = mpmd.fragment<mesh="m", origin=["block_2"(1), "block_1"(1)]> (%arg0) (%a: tensor<4x8xf32>) {
      %n = stablehlo.negate %a : tensor<4x8xf32>
      mpmd.return %n : tensor<4x8xf32>
    } : (!m) -> !m
    // CHECK-NEXT: @"p2_layer_0:1..._fwd_bwd.my_model"(%arg0)
    %2 = mpmd.fragment<mesh="m", origin=["layer_0", "layer_1"(1), "head"]> (%arg0) (%a: tensor<4x8xf32>) {
      %n = stablehlo.abs %a : tensor<4x8xf32>
      mpmd.return %n : tensor<4x8xf32>
    } : (!m) -> !m
    // CHECK-NEXT: @p3_inferred.my_model(%arg0)
    %3 = mpmd.fragment<mesh="m", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
      %n = stablehlo.sine %a : tensor<4x8xf32>
      mpmd.return %n : tensor<4x8xf32>
    } : (!m) -> !m
    return %0, %1, %2, %3 : !m, !m, !m, !m
  }
}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Naming: when every origin is forward there are no phases; the call
// counters of a group's calls are summarised when consistently named.
// CHECK-LABEL: func @call_counters
func.func @call_counters(%arg0: !m) -> (!m, !m, !m) attributes {
    "topology"=#mpmd.topology<<"m": <["x"=4]>>>} {
  // CHECK-NEXT: %[[C0:.*]] = mpmd.fragment_call<mesh="m", origin=["block"]> @p0_block_calls0to1.main(%arg0)
  %0 = mpmd.fragment<mesh="m", origin=["block"]> (%arg0) {call_counter = 0 : ui32} (%a: tensor<4x8xf32>) {
    %n = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %n : tensor<4x8xf32>
  } : (!m) -> !m
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["block"]> @p0_block_calls0to1.main(%[[C0]])
  %1 = mpmd.fragment<mesh="m", origin=["block"]> (%0) {call_counter = 1 : ui32} (%a: tensor<4x8xf32>) {
    %n = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %n : tensor<4x8xf32>
  } : (!m) -> !m
  // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["other"]> @p1_other_call7.main(%arg0)
  %2 = mpmd.fragment<mesh="m", origin=["other"]> (%arg0) {call_counter = 7 : ui32} (%a: tensor<4x8xf32>) {
    %n = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %n : tensor<4x8xf32>
  } : (!m) -> !m
  return %0, %1, %2 : !m, !m, !m
}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// A long name: `p<id>_<name>` is cut to 200 characters (ending in `<...>`),
// then the module name is appended whole.
// CHECK-LABEL: module @jit_a_module_name_that_is_longer_than_thirty_two_characters
module @jit_a_module_name_that_is_longer_than_thirty_two_characters {
  func.func @main(%arg0: !m) -> !m attributes {
      "topology"=#mpmd.topology<<"m": <["x"=4]>>>} {
    // CHECK: mpmd.fragment_call<mesh="m", origin=["a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long"]> @"p0_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rath<...>.a_module_name_that_is_longer_than_thirty_two_characters"(%arg0)
    %0 = mpmd.fragment<mesh="m", origin=["a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long_computation_name_a_rather_long"]> (%arg0) (%a: tensor<4x8xf32>) {
      mpmd.return %a : tensor<4x8xf32>
    } : (!m) -> !m
    return %0 : !m
  }
}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
!r = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, sharding=<@mesh, [{}, {"x"}]>>
!u = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Mesh tensor shardings always become `sdy.sharding`s of the function's
// arguments and results (no module attribute needed), beside the fragment's
// own arg/res attributes; values without a sharding get none. Calls carry no
// partitioner marks (`mpmd.is_gspmd_partitioned` on a fragment is dropped).
// CHECK-LABEL: module {
module {
  sdy.mesh @mesh = <["x"=4]>
  // CHECK-LABEL: func @main
  func.func @main(%arg0: !m, %arg1: !u) -> (!r, !u) attributes {"topology"=#mpmd.topology<<"m": <["x"=4]>>>} {
    // CHECK-NEXT: mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%arg0, %arg1) :
    // CHECK-NOT:  partitioned
    %0:2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{tf.aliasing_output = 0 : i32}, {}], mpmd.is_gspmd_partitioned}
        (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
      %t = stablehlo.transpose %a, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
      mpmd.return %t, %b : tensor<4x8xf32>, tensor<4x8xf32>
    } : (!m, !u) -> (!r, !u)
    return %0#0, %0#1 : !r, !u
  }
  // CHECK: func @p0_f.main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>, tf.aliasing_output = 0 : i32}, %arg1: tensor<4x8xf32>)
  // CHECK-SAME: -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<4x8xf32>)
  // CHECK-SAME: attributes {mesh_shape = #sdy.mesh<["x"=4]>}
}

// -----

!m = !mpmd.mesh_tensor<"stage1", tensor<8x8xf32>>

// The shardings of manual computations inside a lowered body (a nested one,
// one under an op of an unregistered dialect, and the ops in their bodies)
// move from the global mesh to the fragment's mesh, whose `sdy.mesh` is
// created from the topology at the top of the module. A sharding with an
// inline mesh stays; shardings outside manual computations stay too.
// CHECK-LABEL: module {
// CHECK-NEXT:  sdy.mesh @stage1 = <["x"=2, "y"=2]>
// CHECK-NEXT:  sdy.mesh @global = <["x"=2, "y"=2]>
// CHECK-NEXT:  func.func @main
module {
  sdy.mesh @global = <["x"=2, "y"=2]>
  func.func @main(%arg0: !m) -> !m attributes {"topology"=#mpmd.topology<<"stage1": <["x"=2, "y"=2]>>>} {
    %0 = mpmd.fragment<mesh="stage1", origin=["f"]> (%arg0) (%a: tensor<8x8xf32>) {
      %c = sdy.sharding_constraint %a <@global, [{"y"}, {}]> : tensor<8x8xf32>
      %1 = sdy.manual_computation(%c) in_shardings=[<@global, [{"x"}, {}]>] out_shardings=[<@global, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x8xf32>) {
        %n = sdy.sharding_constraint %b <@global, [{}, {"y"}]> : tensor<4x8xf32>
        %2 = sdy.manual_computation(%n) in_shardings=[<@global, [{}, {"y"}]>] out_shardings=[<@global, [{}, {"y"}]>] manual_axes={"y"} (%d: tensor<4x4xf32>) {
          sdy.return %d : tensor<4x4xf32>
        } : (tensor<4x8xf32>) -> tensor<4x8xf32>
        sdy.return %2 : tensor<4x8xf32>
      } : (tensor<8x8xf32>) -> tensor<8x8xf32>
      "other.region_op"() ({
        %3 = sdy.manual_computation(%1) in_shardings=[<@global, [{"y"}, {}]>] out_shardings=[<@global, [{"y"}, {}]>] manual_axes={"y"} (%e: tensor<4x8xf32>) {
          sdy.return %e : tensor<4x8xf32>
        } : (tensor<8x8xf32>) -> tensor<8x8xf32>
        %4 = sdy.manual_computation(%1) in_shardings=[<mesh<["x"=2]>, [{"x"}, {}]>] out_shardings=[<mesh<["x"=2]>, [{"x"}, {}]>] manual_axes={"x"} (%g: tensor<4x8xf32>) {
          sdy.return %g : tensor<4x8xf32>
        } : (tensor<8x8xf32>) -> tensor<8x8xf32>
        "other.yield"() : () -> ()
      }) : () -> ()
      mpmd.return %1 : tensor<8x8xf32>
    } : (!m) -> !m
    return %0 : !m
  }
  // CHECK:      func @p0_f.main(%arg0: tensor<8x8xf32>)
  // CHECK-NEXT:   %[[C:.*]] = sdy.sharding_constraint %arg0 <@global, [{"y"}, {}]>
  // CHECK-NEXT:   %[[MC:.*]] = sdy.manual_computation(%[[C]]) in_shardings=[<@stage1, [{"x"}, {}]>] out_shardings=[<@stage1, [{"x"}, {}]>] manual_axes={"x"}
  // CHECK-NEXT:     %[[N:.*]] = sdy.sharding_constraint %{{.*}} <@stage1, [{}, {"y"}]>
  // CHECK-NEXT:     sdy.manual_computation(%[[N]]) in_shardings=[<@stage1, [{}, {"y"}]>] out_shardings=[<@stage1, [{}, {"y"}]>] manual_axes={"y"}
  // CHECK:        "other.region_op"() ({
  // CHECK-NEXT:     sdy.manual_computation(%[[MC]]) in_shardings=[<@stage1, [{"y"}, {}]>] out_shardings=[<@stage1, [{"y"}, {}]>] manual_axes={"y"}
  // CHECK:          sdy.manual_computation(%[[MC]]) in_shardings=[<mesh<["x"=2]>, [{"x"}, {}]>] out_shardings=[<mesh<["x"=2]>, [{"x"}, {}]>] manual_axes={"x"}
}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<8xf32>>

// The fragment's mesh already has its `sdy.mesh`: it is used, not created again.
// CHECK-LABEL: module {
// CHECK-NEXT:  sdy.mesh @global = <["a"=2]>
// CHECK-NEXT:  sdy.mesh @m = <["a"=2]>
// CHECK-NEXT:  func.func @main
module {
  sdy.mesh @global = <["a"=2]>
  sdy.mesh @m = <["a"=2]>
  func.func @main(%arg0: !m) -> !m attributes {"topology"=#mpmd.topology<<"m": <["a"=2]>>>} {
    %0 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<8xf32>) {
      %1 = sdy.manual_computation(%a) in_shardings=[<@global, [{"a"}]>] out_shardings=[<@global, [{"a"}]>] manual_axes={"a"} (%b: tensor<4xf32>) {
        sdy.return %b : tensor<4xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      mpmd.return %1 : tensor<8xf32>
    } : (!m) -> !m
    return %0 : !m
  }
  // CHECK: sdy.manual_computation(%arg0) in_shardings=[<@m, [{"a"}]>] out_shardings=[<@m, [{"a"}]>]
}
