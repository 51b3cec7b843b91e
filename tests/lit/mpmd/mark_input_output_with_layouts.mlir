// RUN: sdy-dsl opt %s -mpmd-mark-input-output-with-layouts -split-input-file | filecheck %s

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An AUTO input consumed by one fragment stays AUTO there; the fragment's
// result, returned as an AUTO output, stays AUTO too.
// CHECK-LABEL: func @auto_input_one_fragment(%arg0: {{.*}} {mhlo.layout_mode = "auto"}) -> (!mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "auto"})
// CHECK-NEXT:    mpmd.fragment{{.*}} {arg_attrs = [{mhlo.layout_mode = "auto"}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @auto_input_one_fragment(%in: !t {mhlo.layout_mode = "auto"}) -> (!t {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  func.return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An AUTO input consumed by two fragments becomes DEFAULT (written as absent)
// everywhere: no cross-fragment layout propagation.
// CHECK-LABEL: func @auto_input_two_fragments(%arg0: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK:         mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "auto"}]}
// CHECK:         mpmd.fragment<mesh="m1", origin=["b"]> (%arg0) {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @auto_input_two_fragments(%in: !t {mhlo.layout_mode = "auto"}) -> (!t {mhlo.layout_mode = "auto"}, !t {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  %1 = mpmd.fragment<mesh="m1", origin=["b"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  func.return %0, %1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// A custom input layout reaches its consumer; a "default" input layout is
// implicit, so it is dropped from the input and from the fragment.
// CHECK-LABEL: func @custom_and_default_inputs(%arg0: {{.*}} {mhlo.layout_mode = "{0}"}, %arg1: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-NEXT:    mpmd.fragment{{.*}} {arg_attrs = [{mhlo.layout_mode = "{0}"}, {}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @custom_and_default_inputs(%in0: !t {mhlo.layout_mode = "{0}"}, %in1: !t {mhlo.layout_mode = "default"}) -> (!t {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in0, %in1) (%x: tensor<8xf32>, %y: tensor<8xf32>) {
    %s = stablehlo.add %x, %y : tensor<8xf32>
    mpmd.return %s : tensor<8xf32>
  } : (!t, !t) -> !t
  func.return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An AUTO input returned as a "{0}" output takes "{0}", and so does the
// fragment that consumes it.
// CHECK-LABEL: func @input_refined_by_output(%arg0: {{.*}} {mhlo.layout_mode = "{0}"}) ->
// CHECK-SAME:    (!mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "{0}"}, !mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "auto"})
// CHECK-NEXT:    mpmd.fragment{{.*}} {arg_attrs = [{mhlo.layout_mode = "{0}"}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @input_refined_by_output(%in: !t {mhlo.layout_mode = "auto"}) -> (!t {mhlo.layout_mode = "{0}"}, !t {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  func.return %in, %0 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An input returned directly: its "{0}" layout overrides the AUTO output, and
// a "default" output makes the AUTO input DEFAULT (absent on both sides).
// CHECK-LABEL: func @returned_inputs(%arg0: {{.*}} {mhlo.layout_mode = "{0}"}, %arg1: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-SAME:    (!mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "{0}"}, !mpmd.mesh_tensor<"m1", tensor<8xf32>>)
func.func @returned_inputs(%in0: !t {mhlo.layout_mode = "{0}"}, %in1: !t {mhlo.layout_mode = "auto"}) -> (!t {mhlo.layout_mode = "auto"}, !t {mhlo.layout_mode = "default"})
    attributes {topology = #topo} {
  func.return %in0, %in1 : !t, !t
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>

// A transfer to another device mesh keeps the input's custom layout and
// passes it on to the users of its result: here the output it is returned as.
// CHECK-LABEL: func @input_through_device_transfer(%arg0: {{.*}} {mhlo.layout_mode = "{0}"}) ->
// CHECK-SAME:    (!mpmd.mesh_tensor<"m2", tensor<8xf32>> {mhlo.layout_mode = "{0}"}, !mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "auto"})
// CHECK-NEXT:    mpmd.transfer %arg0 :
// CHECK-NEXT:    mpmd.fragment{{.*}} {arg_attrs = [{mhlo.layout_mode = "{0}"}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @input_through_device_transfer(%in: !t1 {mhlo.layout_mode = "{0}"}) -> (!t2 {mhlo.layout_mode = "auto"}, !t1 {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %t = mpmd.transfer %in : (!t1) -> !t2
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t1) -> !t1
  func.return %t, %0 : !t2, !t1
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!c = !mpmd.mesh_tensor<"m1/cpu", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m1/cpu": <["x"=4]>>>

// Only a transfer to a CPU mesh (named `.../cpu`) forces DEFAULT, even over a
// custom layout: on the input, its other consumers and, through the
// transfer, the fragment on the CPU mesh.
// CHECK-LABEL: func @input_transferred_to_cpu(%arg0: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %arg0 :
// CHECK-NEXT:    mpmd.fragment<mesh="m1/cpu", origin=["c"]> (%[[T]]) {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "auto"}]}
// CHECK:         mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @input_transferred_to_cpu(%in: !t1 {mhlo.layout_mode = "{0}"}) -> (!c {mhlo.layout_mode = "auto"}, !t1 {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %t = mpmd.transfer %in : (!t1) -> !c
  %1 = mpmd.fragment<mesh="m1/cpu", origin=["c"]> (%t) {arg_attrs = [{mhlo.layout_mode = "{0}"}]} (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!c) -> !c
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t1) -> !t1
  func.return %1, %0 : !c, !t1
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>

// Device transfers count as uses when deciding whether AUTO becomes DEFAULT:
// an AUTO input used only by one transfer stays AUTO (and reaches the
// fragment behind the transfer); one used by a transfer and a fragment
// becomes DEFAULT (absent).
// CHECK-LABEL: func @transfers_count_as_uses(%arg0: {{.*}} {mhlo.layout_mode = "auto"}, %arg1: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-NEXT:    %[[T0:.*]] = mpmd.transfer %arg0
// CHECK-NEXT:    mpmd.fragment<mesh="m2", origin=["b"]> (%[[T0]]) {arg_attrs = [{mhlo.layout_mode = "auto"}], res_attrs = [{mhlo.layout_mode = "auto"}]}
// CHECK:         mpmd.transfer %arg1
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=["a"]> (%arg1) {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @transfers_count_as_uses(%in0: !t1 {mhlo.layout_mode = "auto"}, %in1: !t1 {mhlo.layout_mode = "auto"})
    -> (!t2 {mhlo.layout_mode = "auto"}, !t2 {mhlo.layout_mode = "auto"}, !t1 {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %t0 = mpmd.transfer %in0 : (!t1) -> !t2
  %b = mpmd.fragment<mesh="m2", origin=["b"]> (%t0) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t2) -> !t2
  %t1 = mpmd.transfer %in1 : (!t1) -> !t2
  %a = mpmd.fragment<mesh="m1", origin=["a"]> (%in1) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t1) -> !t1
  func.return %b, %t1, %a : !t2, !t2, !t1
}
// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// A fragment result returned as an AUTO output and also consumed by another
// fragment becomes DEFAULT on the output and both fragments.
// CHECK-LABEL: func @auto_output_consumed_by_fragment(%arg0: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-SAME:    (!mpmd.mesh_tensor<"m1", tensor<8xf32>>, !mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "auto"})
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=["a"]> {{.*}} {arg_attrs = [{}], res_attrs = [{}]}
// CHECK:         mpmd.fragment<mesh="m1", origin=["b"]> {{.*}} {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @auto_output_consumed_by_fragment(%in: !t) -> (!t {mhlo.layout_mode = "auto"}, !t {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  %1 = mpmd.fragment<mesh="m1", origin=["b"]> (%0) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  func.return %0, %1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// A custom output layout flows back to the producing fragment's result and to
// the fragment consuming that result; an unused fragment result is AUTO.
// CHECK-LABEL: func @custom_output_to_producer(
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=["a"]> {{.*}} {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "{0}"}, {mhlo.layout_mode = "auto"}]}
// CHECK:         mpmd.fragment<mesh="m1", origin=["b"]> {{.*}} {arg_attrs = [{mhlo.layout_mode = "{0}"}], res_attrs = [{}]}
func.func @custom_output_to_producer(%in: !t) -> (!t {mhlo.layout_mode = "{0}"}, !t)
    attributes {topology = #topo} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x, %x : tensor<8xf32>, tensor<8xf32>
  } : (!t) -> (!t, !t)
  %1 = mpmd.fragment<mesh="m1", origin=["b"]> (%0#0) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  func.return %0#0, %1 : !t, !t
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>

// A fragment result with a custom output layout that is also sent to a
// device mesh keeps the layout, and the transfer passes it to the output
// the transferred value is returned as.
// CHECK-LABEL: func @fragment_result_through_device_transfer(%arg0: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-SAME:    (!mpmd.mesh_tensor<"m1", tensor<8xf32>> {mhlo.layout_mode = "{0}"}, !mpmd.mesh_tensor<"m2", tensor<8xf32>> {mhlo.layout_mode = "{0}"})
// CHECK-NEXT:    mpmd.fragment{{.*}} {arg_attrs = [{}], res_attrs = [{mhlo.layout_mode = "{0}"}]}
func.func @fragment_result_through_device_transfer(%in: !t1) -> (!t1 {mhlo.layout_mode = "{0}"}, !t2)
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t1) -> !t1
  %t = mpmd.transfer %0 : (!t1) -> !t2
  func.return %0, %t : !t1, !t2
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>

// A fragment result returned as an AUTO output and also sent to a device
// mesh becomes DEFAULT: the transfer counts as a use.
// CHECK-LABEL: func @auto_fragment_result_transferred(%arg0: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
// CHECK-SAME:    (!mpmd.mesh_tensor<"m1", tensor<8xf32>>, !mpmd.mesh_tensor<"m2", tensor<8xf32>>)
// CHECK-NEXT:    mpmd.fragment{{.*}} {arg_attrs = [{}], res_attrs = [{}]}
func.func @auto_fragment_result_transferred(%in: !t1) -> (!t1 {mhlo.layout_mode = "auto"}, !t2 {mhlo.layout_mode = "auto"})
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t1) -> !t1
  %t = mpmd.transfer %0 : (!t1) -> !t2
  func.return %0, %t : !t1, !t2
}
// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// An unused input keeps whatever it has, even "default".
// CHECK-LABEL: func @unused_input_untouched(%arg0: {{.*}} {mhlo.layout_mode = "default"}, %arg1: !mpmd.mesh_tensor<"m1", tensor<8xf32>>) ->
func.func @unused_input_untouched(%unused: !t {mhlo.layout_mode = "default"}, %in: !t {mhlo.layout_mode = "default"}) -> !t
    attributes {topology = #topo} {
  func.return %in : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<8xf32>>
#topo = #mpmd.topology<<"m1": <["x"=4]>>>

// No-op: a private function is not an entry point; nor is a function without
// a topology or mesh_shape.
// CHECK-LABEL: func private @not_entry_point(%arg0: {{.*}} {mhlo.layout_mode = "default"})
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (
// CHECK-LABEL: func @not_distributed(%arg0: {{.*}} {mhlo.layout_mode = "default"})
func.func private @not_entry_point(%in: !t {mhlo.layout_mode = "default"}) -> !t
    attributes {topology = #topo} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%in) (%x: tensor<8xf32>) {
    mpmd.return %x : tensor<8xf32>
  } : (!t) -> !t
  func.return %0 : !t
}
func.func @not_distributed(%in: !t {mhlo.layout_mode = "default"}) -> !t {
  func.return %in : !t
}
