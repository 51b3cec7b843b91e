// RUN: sdy-dsl opt %s -mpmd-lower-to-fragment-calls='group-across-meshes=true' -split-input-file | filecheck %s

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
!m3 = !mpmd.mesh_tensor<"m3", tensor<4x8xf32>>

// Across meshes, fragments are grouped by mesh shape: m1 and m2 are both
// ["x"=4] and share a function; m3 (["y"=4]) is another mesh shape.
// CHECK-LABEL: func @main
func.func @main(%arg0: !m1) -> (!m2, !m3) attributes {
    "topology"=#mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>, <"m3": <["y"=4]>>>} {
  // CHECK-NEXT: mpmd.fragment_call<mesh="m1", origin=["f1"]> @p0_f1.main(%arg0)
  %0 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.transfer %0 : (!m1) -> !m3
  // CHECK: mpmd.fragment_call<mesh="m2", origin=["f2"]> @p0_f1.main
  %3 = mpmd.fragment<mesh="m2", origin=["f2"]> (%1) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m2) -> !m2
  // CHECK-NEXT: mpmd.fragment_call<mesh="m3", origin=["f3"]> @p1_f3.main
  %4 = mpmd.fragment<mesh="m3", origin=["f3"]> (%2) (%a: tensor<4x8xf32>) {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (!m3) -> !m3
  return %3, %4 : !m2, !m3
}
// CHECK:     func @p0_f1.main({{.*}} attributes {mesh_shape = #sdy.mesh<["x"=4]>}
// CHECK:     func @p1_f3.main({{.*}} attributes {mesh_shape = #sdy.mesh<["y"=4]>}
// CHECK-NOT: func.func
