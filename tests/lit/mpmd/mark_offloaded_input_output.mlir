// RUN: sdy-dsl opt %s -mpmd-mark-offloaded-input-output -split-input-file | filecheck %s

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// A function argument on host makes the fragment argument on host; a body
// result placed on host by annotate_device_placement makes the fragment
// result on host. The function's own attributes are checked, not changed.
// CHECK-LABEL: func.func @argument_and_placed_result_on_host
// CHECK-SAME: (%arg0: {{.*}} {mhlo.memory_kind = "pinned_host"}) -> ({{.*}} {mhlo.memory_kind = "pinned_host"})
func.func @argument_and_placed_result_on_host(%arg0: !t {mhlo.memory_kind = "pinned_host"})
    -> (!t {mhlo.memory_kind = "pinned_host"}) attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{mhlo.memory_kind = "pinned_host"}], res_attrs = [{mhlo.memory_kind = "pinned_host"}]}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %1 = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<16xf32>) -> tensor<16xf32>
    %2 = stablehlo.add %1, %1 : tensor<16xf32>
    %3 = stablehlo.custom_call @annotate_device_placement(%2) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %3 : tensor<16xf32>
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// Nothing on host: both attributes are still set, with empty dictionaries;
// an explicit "device" counts as no memory kind.
// CHECK-LABEL: func.func @nothing_on_host
func.func @nothing_on_host(%arg0: !t {mhlo.memory_kind = "device"}, %arg1: !t)
    -> (!t {mhlo.memory_kind = "device"}, !t) attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{}, {}], res_attrs = [{}, {}]}
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: tensor<16xf32>, %b: tensor<16xf32>) {
    mpmd.return %a, %b : tensor<16xf32>, tensor<16xf32>
  } : (!t, !t) -> (!t, !t)
  return %0#0, %0#1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// A fragment result on host makes the consuming fragment's argument on host.
// CHECK-LABEL: func.func @host_result_feeds_next_fragment
func.func @host_result_feeds_next_fragment(%arg0: !t) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: origin=["f"]> (%arg0) {arg_attrs = [{}], res_attrs = [{mhlo.memory_kind = "pinned_host"}]}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %1 = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %1 : tensor<16xf32>
  } : (!t) -> !t
  // CHECK: origin=["g"]> (%{{.*}}) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}], res_attrs = [{}]}
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: tensor<16xf32>) {
    %3 = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %3 : tensor<16xf32>
  } : (!t) -> !t
  return %2 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// A result computed on host (_xla_compute_type = "host") is on host.
// CHECK-LABEL: func.func @computed_on_host
func.func @computed_on_host(%arg0: !t) -> (!t {mhlo.memory_kind = "pinned_host"})
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{}], res_attrs = [{mhlo.memory_kind = "pinned_host"}]}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %1 = stablehlo.add %a, %a {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : tensor<16xf32>
    mpmd.return %1 : tensor<16xf32>
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>
!s = !mpmd.mesh_tensor<"m1", tensor<1x16xf32>>

// The search looks through optimization barriers, size-1 reshapes and
// broadcasts, the listed custom calls, while loops, the update of a
// dynamic_update_slice and calls.
// CHECK-LABEL: func.func @looks_through_buffer_preserving_ops
func.func @looks_through_buffer_preserving_ops(%arg0: !t)
    -> (!t {mhlo.memory_kind = "pinned_host"}, !s {mhlo.memory_kind = "pinned_host"}, !t {mhlo.memory_kind = "pinned_host"}, !s {mhlo.memory_kind = "pinned_host"}, !t {mhlo.memory_kind = "pinned_host"})
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment
  // CHECK-SAME: res_attrs = [{mhlo.memory_kind = "pinned_host"}, {mhlo.memory_kind = "pinned_host"}, {mhlo.memory_kind = "pinned_host"}, {mhlo.memory_kind = "pinned_host"}, {mhlo.memory_kind = "pinned_host"}]
  %0:5 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %h = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
    %b:2 = stablehlo.optimization_barrier %a, %h : tensor<16xf32>, tensor<16xf32>
    %r = stablehlo.reshape %h : (tensor<16xf32>) -> tensor<1x16xf32>
    %s = stablehlo.custom_call @Sharding(%h) {mhlo.sharding = "{replicated}"} : (tensor<16xf32>) -> tensor<16xf32>
    %c = stablehlo.constant dense<0.0> : tensor<1x16xf32>
    %i = stablehlo.constant dense<0> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %c, %r, %i, %i : (tensor<1x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %w:2 = stablehlo.while(%it = %i, %v = %a) : tensor<i32>, tensor<16xf32>
      cond {
      %p = stablehlo.compare LT, %it, %it, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.custom_call @annotate_device_placement(%v) {has_side_effect = true,
          mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
      stablehlo.return %it, %n : tensor<i32>, tensor<16xf32>
    }
    %k = func.call @to_host(%a) : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %b#1, %r, %s, %u, %w#1 : tensor<16xf32>, tensor<1x16xf32>, tensor<16xf32>, tensor<1x16xf32>, tensor<16xf32>
  } : (!t) -> (!t, !s, !t, !s, !t)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !t, !s, !t, !s, !t
}

func.func private @to_host(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.custom_call @annotate_device_placement(%arg0) {has_side_effect = true,
      mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// A call is looked through to its callee's returned value.
// CHECK-LABEL: func.func @looks_through_call
func.func @looks_through_call(%arg0: !t) -> (!t {mhlo.memory_kind = "pinned_host"})
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment
  // CHECK-SAME: res_attrs = [{mhlo.memory_kind = "pinned_host"}]
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %k = func.call @to_host(%a) : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %k : tensor<16xf32>
  } : (!t) -> !t
  return %0 : !t
}

func.func private @to_host(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.custom_call @annotate_device_placement(%arg0) {has_side_effect = true,
      mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>
!q = !mpmd.mesh_tensor<"m1", tensor<4x4xf32>>

// A reshape that changes non-unit dimensions, an unlisted custom call or a
// compute type other than "host" stop the search; so does a body argument.
// CHECK-LABEL: func.func @search_stops
func.func @search_stops(%arg0: !t {mhlo.memory_kind = "pinned_host"}) -> (!q, !t, !t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment
  // CHECK-SAME: res_attrs = [{}, {}, {}, {}]
  %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %h = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
    %r = stablehlo.reshape %h : (tensor<16xf32>) -> tensor<4x4xf32>
    %s = stablehlo.custom_call @Something(%h) : (tensor<16xf32>) -> tensor<16xf32>
    %d = stablehlo.custom_call @Sharding(%h) {mhlo.frontend_attributes = {_xla_compute_type = "device"}} : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %r, %s, %d, %a : tensor<4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  } : (!t) -> (!q, !t, !t, !t)
  return %0#0, %0#1, %0#2, %0#3 : !q, !t, !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// Private functions are not entry points: no-op.
// CHECK-LABEL: func.func private @not_an_entry_point
func.func private @not_an_entry_point(%arg0: !t {mhlo.memory_kind = "pinned_host"}) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK-NEXT: origin=["f"]> (%arg0) (
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    mpmd.return %a : tensor<16xf32>
  } : (!t) -> !t
  return %0 : !t
}
