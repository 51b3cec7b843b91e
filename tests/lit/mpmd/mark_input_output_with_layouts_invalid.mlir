// RUN: sdy-dsl opt %s -mpmd-mark-input-output-with-layouts -split-input-file -verify-diagnostics

!t = !mpmd.mesh_tensor<"m1", tensor<8x8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An input returned with a different custom layout.
// expected-error @+1 {{Arg #0 is returned as result #0, but with incompatible layouts: "{0, 1}" vs. "{1, 0}"}}
func.func @input_vs_output(%in: !t {mhlo.layout_mode = "{0, 1}"}) -> (!t {mhlo.layout_mode = "{1, 0}"})
    attributes {topology = #topo} {
  func.return %in : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An input returned twice with disagreeing layouts. Uses are visited in
// use-list order (the last operand first), which fixes the order in the message.
func.func @input_returned_twice(%in: !t {mhlo.layout_mode = "auto"}) -> (!t {mhlo.layout_mode = "default"}, !t {mhlo.layout_mode = "{0}"})
    attributes {topology = #topo} {
  // expected-error @+1 {{Result #1 is also returned as result #0, but with incompatible layouts: "{0}" vs. "default"}}
  func.return %in, %in : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// A fragment result returned twice with disagreeing layouts; an absent layout
// is printed as a null attribute, as the C++ pass prints it.
func.func @fragment_result_returned_twice(%in: !t) -> (!t {mhlo.layout_mode = "{0}"}, !t)
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  // expected-error @+1 {{Result #1 is also returned as result #0, but with incompatible layouts: <<NULL ATTRIBUTE>> vs. "{0}"}}
  func.return %0, %0 : !t, !t
}
