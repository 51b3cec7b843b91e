// RUN: sdy-dsl opt %s -sdy-manual-axes-cleanup -split-input-file | filecheck %s

sdy.mesh @mesh = <["c"=2, "a"=2, "b"=2]>

// Every in/out sharding that does not mention a manual axis gets it in its
// replicated axes; replicated axes end up in mesh order (c, a, b), not
// alphabetical. The manual axes themselves are sorted in mesh order too.
// CHECK-LABEL: func @unused_manual_axes_become_replicated
// CHECK-NEXT:  sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:    in_shardings=[<@mesh, [{"a"}, {}], replicated={"b"}>, <@mesh, [{}], replicated={"c", "a", "b"}>]
// CHECK-SAME:    out_shardings=[<@mesh, [{"a"}, {}], replicated={"b"}>]
// CHECK-SAME:    manual_axes={"a", "b"}
func.func @unused_manual_axes_become_replicated(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{}], replicated={"c"}>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"b", "a"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8xf32>) {
    sdy.return %arg2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["c"=2, "a"=2, "b"=2]>

// Manual axes already used everywhere and already in mesh order: no change.
// CHECK-LABEL: func @already_clean
// CHECK-NEXT:  sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c", "a"}]>] out_shardings=[<@mesh, [{"c", "a"}]>] manual_axes={"c", "a"}
func.func @already_clean(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c", "a"}]>] out_shardings=[<@mesh, [{"c", "a"}]>] manual_axes={"c", "a"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["c"=2, "a"=2, "b"=2]>

// A manual axis found in the replicated or unreduced axes counts as used.
// A rank-0 tensor gets the replicated axis too.
// CHECK-LABEL: func @replicated_and_unreduced_count_as_used
// CHECK-NEXT:  sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:    in_shardings=[<@mesh, [{}], unreduced={"a"}>, <@mesh, [], replicated={"a"}>]
// CHECK-SAME:    out_shardings=[<@mesh, [{}], replicated={"a"}>]
func.func @replicated_and_unreduced_count_as_used(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}], unreduced={"a"}>, <@mesh, []>] out_shardings=[<@mesh, [{}], replicated={"a"}>] manual_axes={"a"} (%arg2: tensor<8xf32>, %arg3: tensor<f32>) {
    sdy.return %arg2 : tensor<8xf32>
  } : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_yx = <["y"=4, "x"=2]>

// Sub-axes stay; the added full axis is sorted with them in mesh order.
// Unreduced axes are kept.
// CHECK-LABEL: func @sub_axes_and_unreduced_kept
// CHECK-NEXT:  sdy.manual_computation(%arg0)
// CHECK-SAME:    in_shardings=[<@mesh_yx, [{"y":(1)2}], replicated={"y":(2)2, "x"}>]
// CHECK-SAME:    out_shardings=[<@mesh_yx, [{}], replicated={"x"}, unreduced={"y"}>]
func.func @sub_axes_and_unreduced_kept(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_yx, [{"y":(1)2}], replicated={"y":(2)2}>] out_shardings=[<@mesh_yx, [{}], unreduced={"y"}>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["c"=2, "a"=2, "b"=2]>
sdy.mesh @empty_mesh = <[]>

// A sharding on an empty mesh that needs an update is moved to the mesh the
// manual computation's shardings have in common.
// CHECK-LABEL: func @empty_mesh_replaced
// CHECK-NEXT:  sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:    in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{}], replicated={"a"}>]
// CHECK-SAME:    out_shardings=[<@mesh, [{}], replicated={"a"}>]
func.func @empty_mesh_replaced(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}]>, <@empty_mesh, [{}]>] out_shardings=[<@empty_mesh, [{}]>] manual_axes={"a"} (%arg2: tensor<4xf32>, %arg3: tensor<8xf32>) {
    sdy.return %arg3 : tensor<8xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["c"=2, "a"=2, "b"=2]>

// Non-tensor values (a token) keep their sharding as is.
// CHECK-LABEL: func @token_untouched
// CHECK-NEXT:  sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME:    in_shardings=[<@mesh, []>, <@mesh, [{}], replicated={"a"}>]
// CHECK-SAME:    out_shardings=[<@mesh, []>]
func.func @token_untouched(%arg0: !stablehlo.token, %arg1: tensor<8xf32>) -> !stablehlo.token {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, []>, <@mesh, [{}]>] out_shardings=[<@mesh, []>] manual_axes={"a"} (%arg2: !stablehlo.token, %arg3: tensor<8xf32>) {
    sdy.return %arg2 : !stablehlo.token
  } : (!stablehlo.token, tensor<8xf32>) -> !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

// No inputs, no outputs and an empty body: nothing to do, no error.
// CHECK-LABEL: func @no_inputs_no_outputs_empty_body
// CHECK-NEXT:  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
// CHECK-NEXT:    sdy.return
// CHECK-NEXT:  } : () -> ()
func.func @no_inputs_no_outputs_empty_body() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    sdy.return
  } : () -> ()
  return
}

// -----

// No inputs, no outputs, a non-empty body but no manual axes: no error.
// CHECK-LABEL: func @no_manual_axes_non_empty_body
// CHECK-NEXT:  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
func.func @no_manual_axes_non_empty_body() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    %0 = stablehlo.constant dense<1.0> : tensor<8xf32>
    sdy.return
  } : () -> ()
  return
}

// -----

sdy.mesh @mesh_ab = <["a"=2, "b"=2]>

// A sharding that gains a replicated manual axis moves to the op's common
// mesh: here the symbol of the first sharding, though its own inlined mesh
// is the same mesh.
// CHECK-LABEL: func @inlined_twin_of_the_symbol_moves_to_it
// CHECK:       out_shardings=[<@mesh_ab, [{"a"}], replicated={"b"}>] manual_axes={"a", "b"}
func.func @inlined_twin_of_the_symbol_moves_to_it(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_ab, [{"a"}], replicated={"b"}>] out_shardings=[<mesh<["a"=2, "b"=2]>, [{"a"}]>] manual_axes={"b", "a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A sharding that already mentions every manual axis is left as written.
// CHECK-LABEL: func @untouched_sharding_keeps_its_inlined_mesh
// CHECK:       out_shardings=[<mesh<["a"=2, "b"=2]>, [{"a"}], replicated={"b"}>]
func.func @untouched_sharding_keeps_its_inlined_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_ab, [{"a"}]>] out_shardings=[<mesh<["a"=2, "b"=2]>, [{"a"}], replicated={"b"}>] manual_axes={"a", "b"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_p4_q4 = <["p"=4, "q"=4]>

// A manual axis partly used as a sub-axis leaves the rest of it replicated,
// as sub-axes; sub-axes that together make a whole axis merge into it.
// CHECK-LABEL: func @sub_axes_leave_the_rest_of_their_axis
// CHECK:       in_shardings=[<@mesh_p4_q4, [{"q":(1)2}], replicated={"p", "q":(2)2}>]
// CHECK-SAME:  out_shardings=[<@mesh_p4_q4, [{"q":(2)2}], replicated={"p", "q":(1)2}>] manual_axes={"p", "q"}
func.func @sub_axes_leave_the_rest_of_their_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_p4_q4, [{"q":(1)2}]>] out_shardings=[<@mesh_p4_q4, [{"q":(2)2}], replicated={"p":(2)2}>] manual_axes={"q", "p"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
