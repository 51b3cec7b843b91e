// RUN: sdy-dsl opt %s -mpmd-mark-aliasing-and-donation -split-input-file | filecheck %s

// Only `arg_attrs` changes. A fragment left alone is checked as
// `(operands) (block arguments`: nothing in between.

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// An intermediate value whose last use is a fragment is aliased with the
// first output of the same type.
// CHECK-LABEL: func.func @alias_intermediate
func.func @alias_intermediate(%arg0: !t) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    %1 = stablehlo.negate %a : tensor<4x8xf32>
    mpmd.return %1 : tensor<4x8xf32>
  } : (!t) -> !t
  // CHECK: mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %[[F]]) {arg_attrs = [{}, {tf.aliasing_output = 0 : i32}]}
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %0) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    %3 = stablehlo.add %a, %b : tensor<4x8xf32>
    mpmd.return %3 : tensor<4x8xf32>
  } : (!t, !t) -> !t
  return %arg0, %2 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!u = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>

// An intermediate with no output of its type is donated.
// CHECK-LABEL: func.func @donate_intermediate_without_matching_output
func.func @donate_intermediate_without_matching_output(%arg0: !t) -> !u
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!t) -> !t
  // CHECK: origin=["g"]> (%{{.*}}) {arg_attrs = [{jax.buffer_donor = true}]}
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: tensor<4x8xf32>) {
    %2 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    mpmd.return %2 : tensor<8x4xf32>
  } : (!t) -> !u
  return %1 : !u
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!u = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>

// Function arguments: aliased only if marked tf.aliasing_output (else
// donated when no output fits), donated if marked jax.buffer_donor (even
// when an output would fit), untouched when unmarked.
// CHECK-LABEL: func.func @function_arguments_need_a_user_mark
func.func @function_arguments_need_a_user_mark(
    %arg0: !t {tf.aliasing_output = 0 : i32}, %arg1: !u {tf.aliasing_output = 1 : i32},
    %arg2: !t {jax.buffer_donor = true}, %arg3: !t) -> (!t, !t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{tf.aliasing_output = 0 : i32}, {jax.buffer_donor = true}, {jax.buffer_donor = true}, {}]}
  %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2, %arg3)
      (%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xf32>, %d: tensor<4x8xf32>) {
    mpmd.return %a, %c, %d : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  } : (!t, !u, !t, !t) -> (!t, !t, !t)
  return %0#0, %0#1, %0#2 : !t, !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// Each output is aliased at most once; inputs take outputs in order.
// CHECK-LABEL: func.func @each_output_aliased_once
func.func @each_output_aliased_once(
    %arg0: !t {tf.aliasing_output = 0 : i32}, %arg1: !t {tf.aliasing_output = 0 : i32},
    %arg2: !t {tf.aliasing_output = 0 : i32}) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{tf.aliasing_output = 0 : i32}, {tf.aliasing_output = 1 : i32}, {jax.buffer_donor = true}]}
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2)
      (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) {
    %1 = stablehlo.add %a, %b : tensor<4x8xf32>
    %2 = stablehlo.add %1, %c : tensor<4x8xf32>
    mpmd.return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!t, !t, !t) -> (!t, !t)
  return %0#0, %0#1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// A value is marked only at its last use: not in the first fragment, and
// not at all when returned.
// CHECK-LABEL: func.func @only_at_last_use
func.func @only_at_last_use(%arg0: !t {tf.aliasing_output = 0 : i32}, %arg1: !t {jax.buffer_donor = true}) -> (!t, !t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: origin=["f"]> (%arg0, %arg1) (
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    %1 = stablehlo.add %a, %b : tensor<4x8xf32>
    mpmd.return %1 : tensor<4x8xf32>
  } : (!t, !t) -> !t
  // CHECK: origin=["g"]> (%arg0, %arg1) {arg_attrs = [{tf.aliasing_output = 0 : i32}, {}]}
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %arg1) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    %3 = stablehlo.subtract %a, %b : tensor<4x8xf32>
    mpmd.return %3 : tensor<4x8xf32>
  } : (!t, !t) -> !t
  return %0, %2, %arg1 : !t, !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// The same value twice: only the later operand is its last use.
// CHECK-LABEL: func.func @repeated_operand
func.func @repeated_operand(%arg0: !t) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!t) -> !t
  // CHECK: origin=["g"]> (%{{.*}}, %{{.*}}) {arg_attrs = [{}, {tf.aliasing_output = 0 : i32}]}
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0, %0) (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    %2 = stablehlo.multiply %a, %b : tensor<4x8xf32>
    mpmd.return %2 : tensor<4x8xf32>
  } : (!t, !t) -> !t
  return %1 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// Inputs on host are neither aliased nor donated, and outputs on host are
// never aliased; existing arg_attrs entries are kept.
// CHECK-LABEL: func.func @host_memory
func.func @host_memory(%arg0: !t {tf.aliasing_output = 0 : i32}, %arg1: !t {tf.aliasing_output = 0 : i32}) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{mhlo.memory_kind = "pinned_host"}, {tf.aliasing_output = 1 : i32}], res_attrs = [{mhlo.memory_kind = "pinned_host"}, {}]}
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1)
      {arg_attrs = [{mhlo.memory_kind = "pinned_host"}, {}], res_attrs = [{mhlo.memory_kind = "pinned_host"}, {}]}
      (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    mpmd.return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!t, !t) -> (!t, !t)
  return %0#0, %0#1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// An input aliases only an output with the same mhlo.layout_mode.
// CHECK-LABEL: func.func @layouts_must_match
func.func @layouts_must_match(%arg0: !t {tf.aliasing_output = 0 : i32}, %arg1: !t {tf.aliasing_output = 0 : i32}) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{mhlo.layout_mode = "auto", tf.aliasing_output = 1 : i32}, {jax.buffer_donor = true}], res_attrs = [{mhlo.layout_mode = "default"}, {mhlo.layout_mode = "auto"}]}
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1)
      {arg_attrs = [{mhlo.layout_mode = "auto"}, {}], res_attrs = [{mhlo.layout_mode = "default"}, {mhlo.layout_mode = "auto"}]}
      (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
    mpmd.return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
  } : (!t, !t) -> (!t, !t)
  return %0#0, %0#1 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>

// A value also used by a transfer is left alone; a transfer's result is an
// ordinary intermediate.
// CHECK-LABEL: func.func @transfers
func.func @transfers(%arg0: !t) -> (!t2, !t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!t) -> !t
  %1 = mpmd.transfer %0 : (!t) -> !t2
  %2 = mpmd.transfer %1 : (!t2) -> !t
  // CHECK: origin=["g"]> (%{{.*}}) (
  %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!t) -> !t
  // CHECK: origin=["h"]> (%{{.*}}) {arg_attrs = [{tf.aliasing_output = 0 : i32}]}
  %4 = mpmd.fragment<mesh="m1", origin=["h"]> (%2) (%a: tensor<4x8xf32>) {
    mpmd.return %a : tensor<4x8xf32>
  } : (!t) -> !t
  return %1, %3, %4 : !t2, !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!w = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>

// A user's `tf.aliasing_output = K` on an argument is respected: the K-th
// returned value is traced back (through ops of one operand, such as a
// transfer) to the fragment result it comes from, and the argument is
// aliased to that result. %arg0 -> returned #1 = transfer of %0#2;
// %arg1 -> returned #0 = %0#1. %arg2's K-th value comes from another
// fragment, so it takes the first free output: %0#0.
// CHECK-LABEL: func.func @user_aliasing_is_respected
func.func @user_aliasing_is_respected(
    %arg0: !t {tf.aliasing_output = 1 : i32}, %arg1: !t {tf.aliasing_output = 0 : i32},
    %arg2: !t {tf.aliasing_output = 2 : i32}) -> (!t, !w, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  // CHECK: mpmd.fragment<mesh="m1", origin=["f"]>
  // CHECK-SAME: {arg_attrs = [{tf.aliasing_output = 2 : i32}, {tf.aliasing_output = 1 : i32}, {tf.aliasing_output = 0 : i32}]}
  %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2)
      (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) {
    %1 = stablehlo.multiply %a, %b : tensor<4x8xf32>
    %2 = stablehlo.subtract %b, %c : tensor<4x8xf32>
    %3 = stablehlo.add %a, %c : tensor<4x8xf32>
    mpmd.return %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  } : (!t, !t, !t) -> (!t, !t, !t)
  %4 = mpmd.transfer %0#2 : (!t) -> !w
  // CHECK: mpmd.fragment<mesh="m1", origin=["g"]>
  // CHECK-SAME: {arg_attrs = [{tf.aliasing_output = 0 : i32}]}
  %5 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#0) (%a: tensor<4x8xf32>) {
    %6 = stablehlo.negate %a : tensor<4x8xf32>
    mpmd.return %6 : tensor<4x8xf32>
  } : (!t) -> !t
  return %0#1, %4, %5 : !t, !w, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!u = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>

// When the output the user's mark leads to cannot be aliased (another type,
// already taken) or the mark names no returned value, the argument falls back
// to the first free output of its type. %arg0 -> %0#0 (8x4): falls back to
// %0#1; %arg1 -> %0#1, taken: falls back to %0#2; %arg2 -> returned #7
// (none): no free output left, so it is donated.
// CHECK-LABEL: func.func @user_aliasing_falls_back
func.func @user_aliasing_falls_back(
    %arg0: !t {tf.aliasing_output = 0 : i32}, %arg1: !t {tf.aliasing_output = 1 : i32},
    %arg2: !t {tf.aliasing_output = 7 : i32}) -> (!u, !t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: mpmd.fragment
  // CHECK-SAME: {arg_attrs = [{tf.aliasing_output = 1 : i32}, {tf.aliasing_output = 2 : i32}, {jax.buffer_donor = true}]}
  %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2)
      (%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) {
    %1 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.add %b, %c : tensor<4x8xf32>
    mpmd.return %1, %2, %b : tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  } : (!t, !t, !t) -> (!u, !t, !t)
  return %0#0, %0#1, %0#2 : !u, !t, !t
}
