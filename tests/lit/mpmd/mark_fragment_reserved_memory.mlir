// RUN: sdy-dsl opt %s -mpmd-mark-fragment-reserved-memory -split-input-file | filecheck %s

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_sharded = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>

// The attribute is `reserved_hbm_bytes`. The old `xla_tpu_user_reserved_hbm_bytes`
// ends the same way, so each CHECK starts at the brace before the name.
// A 4x8xf32 is 128 bytes, 64 when split over "x"=2. Live on m1 at first:
// 128 + 64 + 128 = 320, all operands of @f (so 0 is reserved). After @f the
// donated %arg2 is dead (-128), the undonated %arg1 stays live, %0 is live
// (+128) until the transfer (-128), whose result lives on m2. @g reserves
// 192 minus its operand: 64.
// CHECK-LABEL: func @main
func.func @main(%arg0: !m1, %arg1: !m1_sharded, %arg2: !m1 {jax.buffer_donor = true}) -> (!m1, !m2) attributes {
    "topology"=#mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  // CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2) {reserved_hbm_bytes = 0 : i64}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m1, !m1_sharded, !m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  // CHECK: mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) {reserved_hbm_bytes = 64 : i64}
  // CHECK-NOT: xla_tpu_user_reserved_hbm_bytes
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m1) -> !m1
  return %2, %1 : !m1, !m2
}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// Not counted: an argument in host memory, a donated argument without uses,
// an unused result; an operand passed twice is subtracted once.
// Live at @f: %arg0 only (128), its operand twice: 0. After @f: %arg0 is
// not donated and stays; unused %0#1 is not added, %0#0 is (+128).
// CHECK-LABEL: func @not_counted
func.func @not_counted(%arg0: !m, %arg1: !m {mhlo.memory_kind = "pinned_host"}, %arg2: !m {jax.buffer_donor = true}) -> !m attributes {
    "topology"=#mpmd.topology<<"m": <["x"=2]>>>} {
  // CHECK-NEXT: {reserved_hbm_bytes = 0 : i64}
  %0:2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0, %arg0) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    mpmd.return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!m, !m) -> (!m, !m)
  // 128 (%arg0) + 128 (%0#0), minus the operand %0#0: 128.
  // CHECK: {reserved_hbm_bytes = 128 : i64}
  %1 = mpmd.fragment<mesh="m", origin=["g"]> (%0#0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  return %1 : !m
}

// -----

!m = !mpmd.mesh_tensor<"m", tensor<4x8xf32>>

// A fragment operand in host memory (by the fragment's arg_attrs) is not subtracted.
// CHECK-LABEL: func @host_operand
func.func @host_operand(%arg0: !m) -> !m attributes {
    "topology"=#mpmd.topology<<"m": <["x"=2]>>>} {
  // CHECK-NEXT: {arg_attrs = [{mhlo.memory_kind = "pinned_host"}], reserved_hbm_bytes = 128 : i64}
  %0 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  return %0 : !m
}

// -----

// A function without a topology is left alone.
// CHECK-LABEL: func @not_mpmd
func.func @not_mpmd(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: stablehlo.abs %arg0 : tensor<4xf32>
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
