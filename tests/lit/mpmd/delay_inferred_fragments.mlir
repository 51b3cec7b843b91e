// RUN: sdy-dsl opt %s -mpmd-delay-inferred-fragments -split-input-file | filecheck %s

// Fragments with an origin come from user named computations: they stay.
// CHECK-LABEL: func @user_fragments_stay
// CHECK:       mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       return
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @user_fragments_stay(%arg0: !m, %arg1: !m) -> !m attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %f : !m
}

// -----

// An inferred fragment (empty origin) moves right before its first user,
// here a fragment; a later use by the return does not matter.
// CHECK-LABEL: func @inferred_moves_before_first_user
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       %[[INF:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:    stablehlo.negate
// CHECK:       mpmd.fragment<mesh="m1", origin=["f"]> (%[[INF]])
// CHECK:       return %[[INF]]
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @inferred_moves_before_first_user(%arg0: !m, %arg1: !m) -> (!m, !m, !m) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %inf = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    %0 = stablehlo.negate %a : tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%inf) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %inf, %g, %f : !m, !m, !m
}

// -----

// Used only by the return: it moves right before the return.
// CHECK-LABEL: func @inferred_used_only_by_return
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       %[[INF:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:    stablehlo.negate
// CHECK-NEXT:    mpmd.return
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[INF]]
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @inferred_used_only_by_return(%arg0: !m, %arg1: !m) -> (!m, !m) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %inf = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    %0 = stablehlo.negate %a : tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %inf, %g : !m, !m
}

// -----

// Two inferred fragments feeding one op: the later one is moved first, so
// the earlier one ends up closest to the op (their order is reversed).
// CHECK-LABEL: func @inferred_fragments_with_the_same_first_user
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       %[[ABS:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:    stablehlo.abs
// CHECK:       %[[NEG:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:    stablehlo.negate
// CHECK:       mpmd.fragment<mesh="m1", origin=["c"]> (%[[NEG]], %[[ABS]])
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @inferred_fragments_with_the_same_first_user(%arg0: !m, %arg1: !m) -> (!m, !m) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %neg = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    %0 = stablehlo.negate %a : tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (!m) -> !m
  %abs = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    %0 = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %c = mpmd.fragment<mesh="m1", origin=["c"]> (%neg, %abs) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m, !m) -> !m
  func.return %g, %c : !m, !m
}

// -----

// A chain of inferred fragments moves as a whole: the consumer of the chain
// is placed first, then its producer right before it.
// CHECK-LABEL: func @chain_of_inferred_fragments
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       %[[NEG:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:    stablehlo.negate
// CHECK-NEXT:    mpmd.return
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[ABS:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[NEG]])
// CHECK-NEXT:    stablehlo.abs
// CHECK-NEXT:    mpmd.return
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[ABS]]
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @chain_of_inferred_fragments(%arg0: !m, %arg1: !m) -> (!m, !m) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %neg = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    %0 = stablehlo.negate %a : tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (!m) -> !m
  %abs = mpmd.fragment<mesh="m1", origin=[]> (%neg) (%a: tensor<4x8xf32>) {
    %0 = stablehlo.abs %a : tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %abs, %g : !m, !m
}

// -----

// With several results, the first user of any of them counts.
// CHECK-LABEL: func @first_user_of_any_result
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       %[[INF:.*]]:2 = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK:       mpmd.fragment<mesh="m1", origin=["uses_second"]> (%[[INF]]#1)
// CHECK:       mpmd.fragment<mesh="m1", origin=["uses_first"]> (%[[INF]]#0)
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @first_user_of_any_result(%arg0: !m, %arg1: !m) -> (!m, !m, !m) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %inf:2 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a, %a : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!m) -> (!m, !m)
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %second = mpmd.fragment<mesh="m1", origin=["uses_second"]> (%inf#1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %first = mpmd.fragment<mesh="m1", origin=["uses_first"]> (%inf#0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %g, %second, %first : !m, !m, !m
}

// -----

// An inferred fragment without users stays where it is.
// CHECK-LABEL: func @unused_inferred_fragment_stays
// CHECK:       mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       return
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @unused_inferred_fragment_stays(%arg0: !m, %arg1: !m) -> !m attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %inf = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %g : !m
}

// -----

// Only entry points (public functions) are rescheduled; a private function
// (e.g. the callee of an mpmd.call) is left alone.
// CHECK-LABEL: func private @private_function_is_not_rescheduled
// CHECK:       mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK:       return
!m = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func private @private_function_is_not_rescheduled(%arg0: !m, %arg1: !m) -> (!m, !m) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %inf = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!m) -> !m
  func.return %inf, %g : !m, !m
}
