// RUN: sdy-dsl opt %s -mpmd-delay-transfers-from-cpu -split-input-file | filecheck %s

// The operand lives on a CPU mesh (name ending in "/cpu"): the transfer
// moves right before its first user.
// CHECK-LABEL: func @transfer_from_cpu_mesh_moves_before_first_user
// CHECK:       mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
// CHECK:       %[[T:.*]] = mpmd.transfer %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["g"]> (%[[T]])
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
func.func @transfer_from_cpu_mesh_moves_before_first_user(%arg0: !dev, %arg1: !cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  %g = mpmd.fragment<mesh="m", origin=["g"]> (%t) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %g : !dev, !dev
}

// -----

// Used only by the return: the transfer moves right before it.
// CHECK-LABEL: func @transfer_used_only_by_return
// CHECK:       mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
// CHECK:       %[[T:.*]] = mpmd.transfer %arg1
// CHECK-NEXT:  return %{{.*}}, %[[T]]
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
func.func @transfer_used_only_by_return(%arg0: !dev, %arg1: !cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t : !dev, !dev
}

// -----

// Each transfer goes right before its own consumer.
// CHECK-LABEL: func @transfers_interleave_with_their_consumers
// CHECK:       %[[T0:.*]] = mpmd.transfer %arg0
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f0"]> (%[[T0]])
// CHECK:       %[[T1:.*]] = mpmd.transfer %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f1"]> (%[[T1]])
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
func.func @transfers_interleave_with_their_consumers(%arg0: !cpu, %arg1: !cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>>} {
  %t0 = mpmd.transfer %arg0 : (!cpu) -> !dev
  %t1 = mpmd.transfer %arg1 : (!cpu) -> !dev
  %f0 = mpmd.fragment<mesh="m", origin=["f0"]> (%t0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  %f1 = mpmd.fragment<mesh="m", origin=["f1"]> (%t1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f0, %f1 : !dev, !dev
}

// -----

// The operand may be produced in the function (here by a fragment on the
// CPU mesh), not only be an argument.
// CHECK-LABEL: func @transfer_of_a_produced_value
// CHECK:       %[[X:.*]] = mpmd.fragment<mesh="m/cpu", origin=["on_cpu"]> (%arg1)
// CHECK:       mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
// CHECK:       %[[T:.*]] = mpmd.transfer %[[X]]
// CHECK-NEXT:  return %{{.*}}, %[[T]]
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
func.func @transfer_of_a_produced_value(%arg0: !dev, %arg1: !cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>>} {
  %x = mpmd.fragment<mesh="m/cpu", origin=["on_cpu"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!cpu) -> !cpu
  %t = mpmd.transfer %x : (!cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t : !dev, !dev
}

// -----

// An operand in pinned host memory counts as on the host, whatever its mesh
// (and with a sharding in its type).
// CHECK-LABEL: func @transfer_from_pinned_host_memory
// CHECK:       mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
// CHECK:       %[[T:.*]] = mpmd.transfer %arg1
// CHECK-NEXT:  return %{{.*}}, %[[T]]
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!pinned = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>, memory_kind="pinned_host">
func.func @transfer_from_pinned_host_memory(%arg0: !dev, %arg1: !pinned) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!pinned) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t : !dev, !dev
}

// -----

// Transfers are visited in program order: the first one moves before its
// user, the second transfer, which has not moved yet; then the second moves.
// The first transfer is therefore not next to the second in the end.
// CHECK-LABEL: func @transfers_are_visited_in_program_order
// CHECK-NEXT:  %[[T1:.*]] = mpmd.transfer %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
// CHECK:       %[[T2:.*]] = mpmd.transfer %[[T1]]
// CHECK-NEXT:  return %{{.*}}, %[[T2]]
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
!other_cpu = !mpmd.mesh_tensor<"n/cpu", tensor<4x8xf32>>
func.func @transfers_are_visited_in_program_order(%arg0: !dev, %arg1: !cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>, <"n/cpu": <["x"=2]>>>} {
  %t1 = mpmd.transfer %arg1 : (!cpu) -> !other_cpu
  %t2 = mpmd.transfer %t1 : (!other_cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t2 : !dev, !dev
}

// -----

// A transfer without users stays.
// CHECK-LABEL: func @unused_transfer_stays
// CHECK-NEXT:  mpmd.transfer %arg0
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f"]> (%arg1)
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
func.func @unused_transfer_stays(%arg0: !cpu, %arg1: !dev) -> !dev attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>>} {
  %t = mpmd.transfer %arg0 : (!cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f : !dev
}

// -----

// Only the suffix "/cpu" makes a CPU mesh: "m/cpu_" is a device mesh, and a
// transfer between device meshes stays.
// CHECK-LABEL: func @transfer_from_a_device_mesh_stays
// CHECK-NEXT:  mpmd.transfer %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!not_cpu = !mpmd.mesh_tensor<"m/cpu_", tensor<4x8xf32>>
func.func @transfer_from_a_device_mesh_stays(%arg0: !dev, %arg1: !not_cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu_": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!not_cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t : !dev, !dev
}

// -----

// Device memory is not host memory: the transfer stays.
// CHECK-LABEL: func @transfer_from_device_memory_stays
// CHECK-NEXT:  mpmd.transfer %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!device_memory = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, memory_kind="device">
func.func @transfer_from_device_memory_stays(%arg0: !dev, %arg1: !device_memory) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!device_memory) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t : !dev, !dev
}

// -----

// Only entry points (public functions) are rescheduled.
// CHECK-LABEL: func private @private_function_is_not_rescheduled
// CHECK-NEXT:  mpmd.transfer %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m", origin=["f"]> (%arg0)
!dev = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
func.func private @private_function_is_not_rescheduled(%arg0: !dev, %arg1: !cpu) -> (!dev, !dev) attributes {
    topology = #mpmd.topology<<"m": <["x"=2]>>, <"m/cpu": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!cpu) -> !dev
  %f = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!dev) -> !dev
  func.return %f, %t : !dev, !dev
}
