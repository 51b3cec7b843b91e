// RUN: sdy-dsl opt %s -mpmd-mark-input-output-with-layouts -split-input-file -verify-diagnostics

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m1/cpu", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m1/cpu": <["x"=4]>>>

// A transfer to a CPU mesh overrides the input's custom layout: a warning at the input.
// expected-warning @+1 {{Arg #0 is used in a transfer op, but with a non-default layout: "{0}". Forcing the layout to default.}}
func.func @transferred_custom_input(%in: !t1 {mhlo.layout_mode = "{0}"}) -> !t2 attributes {topology = #topo} {
  %t = mpmd.transfer %in : (!t1) -> !t2
  func.return %t : !t2
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m1/cpu", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m1/cpu": <["x"=4]>>>

// A transfer to a CPU mesh overrides the custom layout of the output a fragment result is
// returned as: a warning at the fragment.
func.func @transferred_custom_result(%in: !t1) -> (!t1 {mhlo.layout_mode = "{0}"}, !t2) attributes {topology = #topo} {
  // expected-warning @+1 {{Result #0 is used in a transfer op, but with a non-default layout: "{0}". Forcing the layout to default.}}
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t1) -> !t1
  %t = mpmd.transfer %0 : (!t1) -> !t2
  func.return %0, %t : !t1, !t2
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m1/cpu", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m1/cpu": <["x"=4]>>>

// An AUTO or default layout needs no warning.
func.func @transferred_auto_input(%in: !t1 {mhlo.layout_mode = "auto"}, %in2: !t1 {mhlo.layout_mode = "default"}) -> (!t2, !t2) attributes {topology = #topo} {
  %t = mpmd.transfer %in : (!t1) -> !t2
  %t2 = mpmd.transfer %in2 : (!t1) -> !t2
  func.return %t, %t2 : !t2, !t2
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>

// A transfer to a device mesh keeps a custom layout: no warning.
func.func @device_transfer_keeps_custom_layout(%in: !t1 {mhlo.layout_mode = "{0}"}) -> !t2 attributes {topology = #topo} {
  %t = mpmd.transfer %in : (!t1) -> !t2
  func.return %t : !t2
}
