// RUN: sdy-dsl opt %s -mpmd-mark-offloaded-input-output -split-input-file -verify-diagnostics

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// Two fragments see the argument in different memories. The users are
// reported in MLIR's use-list order: the later user first.
// expected-error @+1 {{Memory kind mismatch between users of arg 0: <<NULL ATTRIBUTE>> vs "pinned_host"}}
func.func @users_disagree(%arg0: !t) -> (!t, !t) attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%a: tensor<16xf32>) {
    mpmd.return %a : tensor<16xf32>
  } : (!t) -> !t
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: tensor<16xf32>) {
    mpmd.return %a : tensor<16xf32>
  } : (!t) -> !t
  return %0, %1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// A transfer sees no memory kind (host memory does not cross transfers).
// expected-error @+1 {{Memory kind mismatch between users of arg 0: <<NULL ATTRIBUTE>> vs "pinned_host"}}
func.func @transfer_user(%arg0: !t) -> (!t, !t) attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%a: tensor<16xf32>) {
    mpmd.return %a : tensor<16xf32>
  } : (!t) -> !t
  %1 = mpmd.transfer %arg0 : (!t) -> !t
  return %0, %1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// The argument says device, its user says host.
// expected-error @+1 {{Memory kind mismatch between arg 0 and users: "device" vs "pinned_host"}}
func.func @argument_disagrees_with_users(%arg0: !t {mhlo.memory_kind = "device"}) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%a: tensor<16xf32>) {
    mpmd.return %a : tensor<16xf32>
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// The fragment result is placed on host (marked by the pass) but the
// function result says device.
func.func @result_disagrees_with_fragment(%arg0: !t) -> (!t {mhlo.memory_kind = "device"})
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<16xf32>) {
    %1 = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<16xf32>) -> tensor<16xf32>
    mpmd.return %1 : tensor<16xf32>
  } : (!t) -> !t
  // expected-error @+1 {{Memory kind mismatch between result 0 and defining op: "device" vs "pinned_host"}}
  return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<16xf32>>

// A returned argument: checked both as an argument (its user is the
// return) and as a result (defined by the argument).
// expected-error @+1 {{Memory kind mismatch between arg 0 and users: "pinned_host" vs "device"}}
func.func @returned_argument(%arg0: !t {mhlo.memory_kind = "pinned_host"}) -> (!t {mhlo.memory_kind = "device"})
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // expected-error @+1 {{Memory kind mismatch between result 0 and defining op: "device" vs "pinned_host"}}
  return %arg0 : !t
}
