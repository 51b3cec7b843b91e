// RUN: sdy-dsl opt %s -mpmd-lower-to-fragment-calls='group-across-meshes=true' -split-input-file | filecheck %s

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>

// `group-across-meshes` was removed upstream: the option is still accepted
// (older command lines pass it) and changes nothing. Equal bodies on two
// meshes of the same shape but different names get one function each; equal
// bodies on one mesh still share one.
// CHECK-LABEL: func @main
func.func @main(%arg0: !m1) -> (!m1, !m2) attributes {
    "topology"=#mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>} {
  // CHECK-NEXT: %[[A:.*]] = mpmd.fragment_call<mesh="m1", origin=["f1"]> @p0_f1.main(%arg0)
  %0 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  // CHECK-NEXT: %[[T:.*]] = mpmd.transfer
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  // CHECK-NEXT: mpmd.fragment_call<mesh="m2", origin=["f2"]> @p1_f2.main(%[[T]])
  %2 = mpmd.fragment<mesh="m2", origin=["f2"]> (%1) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m2) -> !m2
  // CHECK-NEXT: mpmd.fragment_call<mesh="m1", origin=["f3"]> @p0_f1.main(%[[A]])
  %3 = mpmd.fragment<mesh="m1", origin=["f3"]> (%0) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  return %3, %2 : !m1, !m2
}
// CHECK:     func @p0_f1.main({{.*}} attributes {mesh_shape = #sdy.mesh<["x"=4]>}
// CHECK:     func @p1_f2.main({{.*}} attributes {mesh_shape = #sdy.mesh<["x"=4]>}
// CHECK-NOT: func.func
