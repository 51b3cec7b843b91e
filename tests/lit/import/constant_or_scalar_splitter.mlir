// RUN: sdy-dsl opt %s -sdy-constant-or-scalar-splitter -split-input-file | filecheck %s

// Every stablehlo.constant becomes an sdy.constant (other attributes kept).
// A constant with two users is cloned once per user; each clone is inserted
// right before the original, which is erased once unused.
// CHECK-LABEL: func @constant_two_users
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant {foo = 1 : i32} dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant {foo = 1 : i32} dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %[[C0]] : tensor<8xf32>
// CHECK-NEXT:  %[[MUL:.*]] = stablehlo.multiply %[[C1]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  return %[[ADD]], %[[MUL]]
func.func @constant_two_users(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant {foo = 1 : i32} dense<1.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  %1 = stablehlo.multiply %c, %arg0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A constant with a single user is only converted.
// CHECK-LABEL: func @constant_single_user
// CHECK-NEXT:  %[[C:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %[[C]] : tensor<8xf32>
// CHECK-NEXT:  return %[[ADD]]
func.func @constant_single_user(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A constant sub-computation (constant, iota, elementwise ops, broadcast) is
// cloned whole for each non-constant use. Inside one clone a value keeps its
// several uses (the multiply). Two operands of one op are two uses, so the
// dot_general gets two clones of %0. Clones of each op are grouped where the
// original stood, in creation order.
// CHECK-LABEL: func @constant_sub_computation
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[C2:.*]] = sdy.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[C3:.*]] = sdy.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[I0:.*]] = stablehlo.iota dim = 0 : tensor<4xf32>
// CHECK-NEXT:  %[[I1:.*]] = stablehlo.iota dim = 0 : tensor<4xf32>
// CHECK-NEXT:  %[[I2:.*]] = stablehlo.iota dim = 0 : tensor<4xf32>
// CHECK-NEXT:  %[[I3:.*]] = stablehlo.iota dim = 0 : tensor<4xf32>
// CHECK-NEXT:  %[[A0:.*]] = stablehlo.add %[[C0]], %[[I0]] : tensor<4xf32>
// CHECK-NEXT:  %[[A1:.*]] = stablehlo.add %[[C1]], %[[I1]] : tensor<4xf32>
// CHECK-NEXT:  %[[A2:.*]] = stablehlo.add %[[C2]], %[[I2]] : tensor<4xf32>
// CHECK-NEXT:  %[[A3:.*]] = stablehlo.add %[[C3]], %[[I3]] : tensor<4xf32>
// CHECK-NEXT:  %[[M0:.*]] = stablehlo.multiply %[[A0]], %[[A0]] : tensor<4xf32>
// CHECK-NEXT:  %[[M1:.*]] = stablehlo.multiply %[[A1]], %[[A1]] : tensor<4xf32>
// CHECK-NEXT:  %[[B0:.*]] = stablehlo.broadcast_in_dim %[[M0]], dims = [1]
// CHECK-NEXT:  %[[B1:.*]] = stablehlo.broadcast_in_dim %[[M1]], dims = [1]
// CHECK-NEXT:  stablehlo.add %arg0, %[[B0]] : tensor<8x4xf32>
// CHECK-NEXT:  stablehlo.subtract %[[B1]], %arg0 : tensor<8x4xf32>
// CHECK-NEXT:  stablehlo.dot_general %[[A2]], %[[A3]], contracting_dims = [0] x [0]
func.func @constant_sub_computation(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>) {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %i = stablehlo.iota dim = 0 : tensor<4xf32>
  %0 = stablehlo.add %c, %i : tensor<4xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<4xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
  %3 = stablehlo.add %arg0, %2 : tensor<8x4xf32>
  %4 = stablehlo.subtract %2, %arg0 : tensor<8x4xf32>
  %5 = stablehlo.dot_general %0, %0, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %3, %4, %5 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>
}

// -----

// Slice and reshape keep a sub-computation constant; transpose does not, so
// it is a user that gets its own clone. func.return is a user too.
// CHECK-LABEL: func @slice_reshape_and_return
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<2.000000e+00> : tensor<16xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<2.000000e+00> : tensor<16xf32>
// CHECK-NEXT:  %[[S0:.*]] = stablehlo.slice %[[C0]] [0:8]
// CHECK-NEXT:  %[[S1:.*]] = stablehlo.slice %[[C1]] [0:8]
// CHECK-NEXT:  %[[R0:.*]] = stablehlo.reshape %[[S0]]
// CHECK-NEXT:  %[[R1:.*]] = stablehlo.reshape %[[S1]]
// CHECK-NEXT:  %[[T:.*]] = stablehlo.transpose %[[R0]], dims = [1, 0]
// CHECK-NEXT:  return %[[T]], %[[R1]]
func.func @slice_reshape_and_return(%arg0: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>) {
  %c = stablehlo.constant dense<2.0> : tensor<16xf32>
  %0 = stablehlo.slice %c [0:8] : (tensor<16xf32>) -> tensor<8xf32>
  %1 = stablehlo.reshape %0 : (tensor<8xf32>) -> tensor<2x4xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  return %2, %1 : tensor<4x2xf32>, tensor<2x4xf32>
}

// -----

// Rank-0 tensors cannot be sharded: a scalar constant is converted but never
// cloned.
// CHECK-LABEL: func @scalar_constant_not_split
// CHECK-NEXT:  %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  stablehlo.add %arg0, %[[C]] : tensor<f32>
// CHECK-NEXT:  stablehlo.multiply %arg0, %[[C]] : tensor<f32>
func.func @scalar_constant_not_split(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.add %arg0, %c : tensor<f32>
  %1 = stablehlo.multiply %arg0, %c : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// A broadcast of a scalar (here a non-constant one) is a scalar expansion:
// cloned once per user, while the scalar operand stays shared.
// CHECK-LABEL: func @scalar_expansion_split
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0 : tensor<f32>
// CHECK-NEXT:  %[[B0:.*]] = stablehlo.broadcast_in_dim %[[ABS]], dims = [] : (tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:  %[[B1:.*]] = stablehlo.broadcast_in_dim %[[ABS]], dims = [] : (tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[B0]], %arg1 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[B1]], %arg1 : tensor<8xf32>
func.func @scalar_expansion_split(%arg0: tensor<f32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.add %1, %arg1 : tensor<8xf32>
  %3 = stablehlo.multiply %1, %arg1 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A constant sub-computation ending in a broadcast of a scalar: the
// broadcast is cloned per user, the scalar part of the chain is not.
// CHECK-LABEL: func @broadcast_of_scalar_constant
// CHECK-NEXT:  %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %[[C]], %[[C]] : tensor<f32>
// CHECK-NEXT:  %[[B0:.*]] = stablehlo.broadcast_in_dim %[[ADD]], dims = []
// CHECK-NEXT:  %[[B1:.*]] = stablehlo.broadcast_in_dim %[[ADD]], dims = []
// CHECK-NEXT:  stablehlo.add %[[B0]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[B1]], %arg0 : tensor<8xf32>
func.func @broadcast_of_scalar_constant(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.add %c, %c : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8xf32>
  %3 = stablehlo.multiply %1, %arg0 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A sharding group on a constant is cloned with each clone (right after it);
// the original's group goes away with the original.
// CHECK-LABEL: func @sharding_group_follows_clones
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %[[C0]] group_id=3 : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %[[C1]] group_id=3 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[C0]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[C1]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  return
func.func @sharding_group_follows_clones(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  sdy.sharding_group %c group_id = 3 : tensor<8xf32>
  %0 = stablehlo.add %c, %arg0 : tensor<8xf32>
  %1 = stablehlo.multiply %c, %arg0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Constants in nested regions are split too.
// CHECK-LABEL: func @constant_in_while_body
// CHECK:       cond {
// CHECK-NEXT:    sdy.constant dense<true> : tensor<i1>
// CHECK:       } do {
// CHECK-NEXT:    %[[C0:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    %[[C1:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %{{.*}}, %[[C0]] : tensor<8xf32>
// CHECK-NEXT:    stablehlo.multiply %[[ADD]], %[[C1]] : tensor<8xf32>
func.func @constant_in_while_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c0 = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c0 : tensor<i1>
  } do {
    %c = stablehlo.constant dense<2.0> : tensor<8xf32>
    %1 = stablehlo.add %iterArg, %c : tensor<8xf32>
    %2 = stablehlo.multiply %1, %c : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// A named computation whose body holds only constant-preserving ops and whose
// operands are constant is itself a constant expression: it is cloned, body
// included, for each user (its body was split first).
// CHECK-LABEL: func @constant_named_computation
// CHECK-NEXT:  %[[NC0:.*]] = sdy.named_computation<"bar">() () {
// CHECK-NEXT:    %[[X:.*]] = sdy.constant dense<3.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[X]] : tensor<8xf32>
// CHECK-NEXT:  } : () -> tensor<8xf32>
// CHECK-NEXT:  %[[NC1:.*]] = sdy.named_computation<"bar">() () {
// CHECK-NEXT:    %[[Y:.*]] = sdy.constant dense<3.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[Y]] : tensor<8xf32>
// CHECK-NEXT:  } : () -> tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[NC0]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[NC1]], %arg0 : tensor<8xf32>
func.func @constant_named_computation(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.named_computation<"bar">() () {
    %c = stablehlo.constant dense<3.0> : tensor<8xf32>
    sdy.return %c : tensor<8xf32>
  } : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A named computation with a non-constant-preserving op (dot_general) is an
// ordinary user: its constant operand gets its own clone.
// CHECK-LABEL: func @non_constant_named_computation
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  sdy.named_computation<"baz">(%[[C0]])
// CHECK:       stablehlo.add %[[C1]], %arg0 : tensor<8xf32>
func.func @non_constant_named_computation(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = sdy.named_computation<"baz">(%c) (%arg1: tensor<8xf32>) {
    %1 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    sdy.return %2 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %3 = stablehlo.add %c, %arg0 : tensor<8xf32>
  return %0, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A call to a function made only of constant-preserving ops is a constant
// expression: each clone calls its own copy of the callee, named
// `<callee>_<n>` and tagged with `sdy.original_func_name`; the copies are
// appended to the module and the original callee stays.
// CHECK-LABEL: func private @make_const()
// CHECK-LABEL: func @constant_call
// CHECK-NEXT:  %[[A:.*]] = call @make_const_0() : () -> tensor<8xf32>
// CHECK-NEXT:  %[[B:.*]] = call @make_const_1() : () -> tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[A]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[B]], %arg0 : tensor<8xf32>
// CHECK:       func private @make_const_0() -> tensor<8xf32> attributes {sdy.original_func_name = "make_const"} {
// CHECK-NEXT:    sdy.constant dense<3.000000e+00> : tensor<8xf32>
// CHECK:       func private @make_const_1() -> tensor<8xf32> attributes {sdy.original_func_name = "make_const"} {
func.func private @make_const() -> tensor<8xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

func.func @constant_call(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = func.call @make_const() : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Callees are processed before their callers: a call to a function holding a
// non-constant-preserving op (custom_call) is an ordinary user even when the
// callee comes later in the module.
// CHECK-LABEL: func @non_constant_call
// CHECK-NEXT:  %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[CALL:.*]] = call @callee(%[[C]])
// CHECK-NEXT:  stablehlo.add %[[CALL]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[CALL]], %arg0
func.func @non_constant_call(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = func.call @callee(%c) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Unused constant expressions and scalar expansions (rank-0 ones included)
// are erased; so is a constant whose only users are sharding groups.
// CHECK-LABEL: func @unused_constants_erased
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0 : tensor<f32>
// CHECK-NEXT:  return %[[ABS]] : tensor<f32>
func.func @unused_constants_erased(%arg0: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.abs %arg0 : tensor<f32>
  %c2 = stablehlo.constant dense<1.0> : tensor<f32>
  %i = stablehlo.iota dim = 0 : tensor<4xf32>
  sdy.sharding_group %i group_id = 0 : tensor<4xf32>
  return %1 : tensor<f32>
}

// -----

// A constant used both inside a constant sub-computation and by a user: the
// user gets a copy of the constant alone, the other user a copy of the whole
// sub-computation (in which the constant keeps its two uses).
// CHECK-LABEL: func @constant_used_in_and_out_of_sub_computation
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C2:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[N1:.*]] = stablehlo.negate %[[C1]] : tensor<8xf32>
// CHECK-NEXT:  %[[N2:.*]] = stablehlo.negate %[[C2]] : tensor<8xf32>
// CHECK-NEXT:  %[[A1:.*]] = stablehlo.add %[[C1]], %[[N1]] : tensor<8xf32>
// CHECK-NEXT:  %[[A2:.*]] = stablehlo.add %[[C2]], %[[N2]] : tensor<8xf32>
// CHECK-NEXT:  stablehlo.custom_call @foo(%[[C0]], %[[A1]])
// CHECK-NEXT:  stablehlo.add %[[A2]], %arg0 : tensor<8xf32>
func.func @constant_used_in_and_out_of_sub_computation(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.negate %c : tensor<8xf32>
  %1 = stablehlo.add %c, %0 : tensor<8xf32>
  %2 = stablehlo.custom_call @foo(%c, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = stablehlo.add %1, %arg0 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A constant sub-computation whose result is rank-0 is not copied at all.
// CHECK-LABEL: func @scalar_result_of_sub_computation_not_split
// CHECK-NEXT:  %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.slice %[[C]] [0:1]
// CHECK-NEXT:  %[[R:.*]] = stablehlo.reshape %[[S]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:  stablehlo.add %arg0, %[[R]] : tensor<f32>
// CHECK-NEXT:  stablehlo.multiply %arg0, %[[R]] : tensor<f32>
func.func @scalar_result_of_sub_computation_not_split(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.slice %c [0:1] : (tensor<4xf32>) -> tensor<1xf32>
  %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
  %2 = stablehlo.add %arg0, %1 : tensor<f32>
  %3 = stablehlo.multiply %arg0, %1 : tensor<f32>
  return %2, %3 : tensor<f32>, tensor<f32>
}

// -----

// Iota times a broadcast scalar constant: the whole expression is copied per
// user except the scalar constant, which both copies share.
// CHECK-LABEL: func @iota_times_broadcast_scalar
// CHECK-NEXT:  %[[I0:.*]] = stablehlo.iota dim = 0 : tensor<8xi32>
// CHECK-NEXT:  %[[I1:.*]] = stablehlo.iota dim = 0 : tensor<8xi32>
// CHECK-NEXT:  %[[C:.*]] = sdy.constant dense<2> : tensor<i32>
// CHECK-NEXT:  %[[B0:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = []
// CHECK-NEXT:  %[[B1:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = []
// CHECK-NEXT:  %[[M0:.*]] = stablehlo.multiply %[[I0]], %[[B0]] : tensor<8xi32>
// CHECK-NEXT:  %[[M1:.*]] = stablehlo.multiply %[[I1]], %[[B1]] : tensor<8xi32>
// CHECK-NEXT:  %[[E0:.*]] = stablehlo.broadcast_in_dim %[[M0]], dims = [1]
// CHECK-NEXT:  %[[E1:.*]] = stablehlo.broadcast_in_dim %[[M1]], dims = [1]
// CHECK-NEXT:  stablehlo.add %arg0, %[[E0]] : tensor<4x8xi32>
// CHECK-NEXT:  stablehlo.subtract %arg0, %[[E1]] : tensor<4x8xi32>
func.func @iota_times_broadcast_scalar(%arg0: tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xi32>) {
  %i = stablehlo.iota dim = 0 : tensor<8xi32>
  %c = stablehlo.constant dense<2> : tensor<i32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
  %0 = stablehlo.multiply %i, %b : tensor<8xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<8xi32>) -> tensor<4x8xi32>
  %2 = stablehlo.add %arg0, %1 : tensor<4x8xi32>
  %3 = stablehlo.subtract %arg0, %1 : tensor<4x8xi32>
  return %2, %3 : tensor<4x8xi32>, tensor<4x8xi32>
}

// -----

// sdy.reshard and chlo's elementwise ops preserve constness too.
// CHECK-LABEL: func @reshard_and_chlo_elementwise
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant
// CHECK-NEXT:  %[[R0:.*]] = sdy.reshard %[[C0]]
// CHECK-NEXT:  %[[R1:.*]] = sdy.reshard %[[C1]]
// CHECK-NEXT:  %[[E0:.*]] = chlo.erf %[[R0]]
// CHECK-NEXT:  %[[E1:.*]] = chlo.erf %[[R1]]
// CHECK-NEXT:  stablehlo.add %[[E0]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[E1]], %arg0
sdy.mesh @mesh = <["x"=2]>
func.func @reshard_and_chlo_elementwise(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = sdy.reshard %c <@mesh, [{"x"}]> : tensor<8xf32>
  %1 = chlo.erf %0 : tensor<8xf32> -> tensor<8xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8xf32>
  %3 = stablehlo.multiply %1, %arg0 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A sharding group on an intermediate value of a copied sub-computation is
// copied right after each copy of that value.
// CHECK-LABEL: func @sharding_group_on_intermediate
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[N0:.*]] = stablehlo.negate %[[C0]] : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %[[N0]] group_id=1 : tensor<8xf32>
// CHECK-NEXT:  %[[N1:.*]] = stablehlo.negate %[[C1]] : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %[[N1]] group_id=1 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[N0]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[N1]], %arg0 : tensor<8xf32>
func.func @sharding_group_on_intermediate(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.negate %c : tensor<8xf32>
  sdy.sharding_group %0 group_id = 1 : tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A constant from outside a while op used in its body is copied for each use
// (nested regions share their function's constants).
// CHECK-LABEL: func @outer_constant_used_in_while_body
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C2:.*]] = sdy.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[W:.*]] = stablehlo.while
// CHECK:       } do {
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %{{.*}}, %[[C0]] : tensor<8xf32>
// CHECK-NEXT:    stablehlo.multiply %[[A]], %[[C1]] : tensor<8xf32>
// CHECK:       stablehlo.add %[[W]], %[[C2]] : tensor<8xf32>
func.func @outer_constant_used_in_while_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c0 = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c0 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %c : tensor<8xf32>
    %2 = stablehlo.multiply %1, %c : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  %3 = stablehlo.add %0, %c : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Nested named computations: the inner body is split first, then the outer
// body (where the inner computation is a constant expression used twice by
// one add), then the function, which copies the outer computation whole.
// CHECK-LABEL: func @nested_named_computations
// CHECK-NEXT:  %[[O0:.*]] = sdy.named_computation<"outer">() () {
// CHECK-NEXT:    %[[I0:.*]] = sdy.named_computation<"inner">() () {
// CHECK-NEXT:      sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:      sdy.return
// CHECK-NEXT:    } : () -> tensor<8xf32>
// CHECK-NEXT:    %[[A0:.*]] = stablehlo.add %[[I0]], %[[I0]] : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[A0]] : tensor<8xf32>
// CHECK-NEXT:  } : () -> tensor<8xf32>
// CHECK-NEXT:  %[[O1:.*]] = sdy.named_computation<"outer">() () {
// CHECK-NEXT:    %[[I1:.*]] = sdy.named_computation<"inner">() () {
// CHECK-NEXT:      sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:      sdy.return
// CHECK-NEXT:    } : () -> tensor<8xf32>
// CHECK-NEXT:    %[[A1:.*]] = stablehlo.add %[[I1]], %[[I1]] : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[A1]] : tensor<8xf32>
// CHECK-NEXT:  } : () -> tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[O0]], %arg0 : tensor<8xf32>
// CHECK-NEXT:  stablehlo.multiply %[[O1]], %arg0 : tensor<8xf32>
func.func @nested_named_computations(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.named_computation<"outer">() () {
    %1 = sdy.named_computation<"inner">() () {
      %c = stablehlo.constant dense<1.0> : tensor<8xf32>
      sdy.return %c : tensor<8xf32>
    } : () -> tensor<8xf32>
    %2 = stablehlo.add %1, %1 : tensor<8xf32>
    sdy.return %2 : tensor<8xf32>
  } : () -> tensor<8xf32>
  %3 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %4 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %3, %4 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A named computation body is split on its own: its scalar expansion is
// copied per user there, and an unused one is erased.
// CHECK-LABEL: func @scalar_expansion_in_named_computation
// CHECK-NEXT:  sdy.named_computation<"body">(%arg0, %arg1) (%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<8xf32>) {
// CHECK-NEXT:    %[[E0:.*]] = stablehlo.broadcast_in_dim %[[A]], dims = []
// CHECK-NEXT:    %[[E1:.*]] = stablehlo.broadcast_in_dim %[[A]], dims = []
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[E0]], %[[B]] : tensor<8xf32>
// CHECK-NEXT:    %[[MUL:.*]] = stablehlo.multiply %[[E1]], %[[ADD]] : tensor<8xf32>
// CHECK-NEXT:    sdy.return %[[MUL]] : tensor<8xf32>
// CHECK-NEXT:  }
func.func @scalar_expansion_in_named_computation(%arg0: tensor<f32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"body">(%arg0, %arg1) (%a: tensor<f32>, %b: tensor<8xf32>) {
    %1 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.add %1, %b : tensor<8xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<8xf32>
    %4 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<8xf32>
    sdy.return %3 : tensor<8xf32>
  } : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// All named computation bodies of a function are split before the function
// body, and a named computation's constness is kept by name for the whole
// run: the later non-constant "n" makes the first "n" (and the one in
// @other) non-constant, so they are not copied.
// CHECK-LABEL: func @same_name_named_computations
// CHECK-NEXT:  %[[N:.*]] = sdy.named_computation<"n">() () {
// CHECK-NEXT:    sdy.constant dense<3.000000e+00>
// CHECK:       } : () -> tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[N]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[N]], %arg0
// CHECK-LABEL: func @other
// CHECK-NEXT:  %[[N:.*]] = sdy.named_computation<"n">() () {
// CHECK-NEXT:    sdy.constant dense<3.000000e+00>
// CHECK:       } : () -> tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[N]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[N]], %arg0
func.func @same_name_named_computations(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.named_computation<"n">() () {
    %c = stablehlo.constant dense<3.0> : tensor<8xf32>
    sdy.return %c : tensor<8xf32>
  } : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  %3 = sdy.named_computation<"n">(%arg0) (%a: tensor<8xf32>) {
    %x = stablehlo.custom_call @bar(%a) : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %x : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func @other(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.named_computation<"n">() () {
    %c = stablehlo.constant dense<3.0> : tensor<8xf32>
    sdy.return %c : tensor<8xf32>
  } : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Function names and named computation names are tracked apart: a
// non-constant function @foo does not make the named computation "foo"
// non-constant.
// CHECK-LABEL: func @function_and_named_computation_names_apart
// CHECK-NEXT:  %[[N0:.*]] = sdy.named_computation<"foo">() () {
// CHECK:       %[[N1:.*]] = sdy.named_computation<"foo">() () {
// CHECK:       stablehlo.add %[[N0]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[N1]], %arg0
// CHECK-NEXT:  call @foo(%arg0)
func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @function_and_named_computation_names_apart(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.named_computation<"foo">() () {
    %c = stablehlo.constant dense<3.0> : tensor<8xf32>
    sdy.return %c : tensor<8xf32>
  } : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  %3 = func.call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A call whose operand is constant and whose callee preserves constness (it
// calls @neg, elementwise, on its argument) is a constant expression. Each
// copy of the call gets its own copy of the callee, whose calls get their own
// copies of @neg, one per call op, named first. One uniquing counter serves
// the whole run. The call on %arg0 is left alone.
// CHECK-LABEL: func @call_with_constant_operand
// CHECK-NEXT:  %[[C0:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[C1:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[T0:.*]] = call @twice_neg_2(%[[C0]])
// CHECK-NEXT:  %[[T1:.*]] = call @twice_neg_5(%[[C1]])
// CHECK-NEXT:  stablehlo.add %[[T0]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[T1]], %arg0
// CHECK-NEXT:  call @twice_neg(%arg0)
// CHECK:       func private @neg_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "neg"}
// CHECK:       func private @neg_1(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "neg"}
// CHECK:       func private @twice_neg_2(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "twice_neg"}
// CHECK-NEXT:    %[[X:.*]] = call @neg_0(%arg0)
// CHECK-NEXT:    call @neg_1(%[[X]])
// CHECK:       func private @neg_3(
// CHECK:       func private @neg_4(
// CHECK:       func private @twice_neg_5(
// CHECK-NEXT:    %[[Y:.*]] = call @neg_3(%arg0)
// CHECK-NEXT:    call @neg_4(%[[Y]])
func.func private @neg(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @twice_neg(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @neg(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @neg(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func @call_with_constant_operand(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = func.call @twice_neg(%c) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  %3 = func.call @twice_neg(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Functions are split callees first (call-graph post-order from each function
// in module order, callees in call order): @b, called by @main, is split
// before @main, so its copies of @a are numbered first. Copy names skip taken
// symbols (@a_1 exists).
// CHECK-LABEL: func @main
// CHECK-NEXT:  call @a_3()
// CHECK-NEXT:  call @a_4()
// CHECK-LABEL: func private @b
// CHECK-NEXT:  call @a_0()
// CHECK-NEXT:  call @a_2()
// CHECK-LABEL: func private @a_1()
// CHECK-NEXT:    sdy.constant dense<4.000000e+00>
// CHECK:       func private @a_0() {{.*}}attributes {sdy.original_func_name = "a"}
// CHECK:       func private @a_2() {{.*}}attributes {sdy.original_func_name = "a"}
// CHECK:       func private @a_3() {{.*}}attributes {sdy.original_func_name = "a"}
// CHECK:       func private @a_4() {{.*}}attributes {sdy.original_func_name = "a"}
func.func private @a() -> tensor<8xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = func.call @a() : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  %3 = func.call @b(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func private @b(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @a() : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

func.func private @a_1() -> tensor<8xf32> {
  %c = stablehlo.constant dense<4.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// Within a function, named computation bodies come first: the copies of @k
// made in "n" are numbered before those made in the function body.
// CHECK-LABEL: func @named_computation_bodies_first
// CHECK-NEXT:  call @k_2()
// CHECK-NEXT:  call @k_3()
// CHECK:       sdy.named_computation<"n">
// CHECK-NEXT:    func.call @k_0()
// CHECK-NEXT:    func.call @k_1()
func.func private @k() -> tensor<8xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

func.func @named_computation_bodies_first(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = func.call @k() : () -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  %3 = sdy.named_computation<"n">(%arg0) (%a: tensor<8xf32>) {
    %4 = func.call @k() : () -> tensor<8xf32>
    %5 = stablehlo.add %4, %a : tensor<8xf32>
    %6 = stablehlo.multiply %4, %5 : tensor<8xf32>
    sdy.return %6 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A call to an external declaration is constant-preserving too (nothing marks
// it non-constant): the declaration is copied. A call with two results is
// copied whole for each use of either result.
// CHECK-LABEL: func @declaration_and_two_results
// CHECK-NEXT:  %[[E0:.*]] = call @ext_0()
// CHECK-NEXT:  %[[E1:.*]] = call @ext_1()
// CHECK-NEXT:  %[[T0:.*]]:2 = call @two_2()
// CHECK-NEXT:  %[[T1:.*]]:2 = call @two_3()
// CHECK-NEXT:  stablehlo.add %[[E0]], %arg0
// CHECK-NEXT:  stablehlo.multiply %[[E1]], %arg0
// CHECK-NEXT:  stablehlo.custom_call @foo(%[[T0]]#1, %[[T1]]#0)
// CHECK:       func private @ext_0() -> tensor<8xf32> attributes {sdy.original_func_name = "ext"}{{$}}
// CHECK-NEXT:  func private @ext_1() -> tensor<8xf32> attributes {sdy.original_func_name = "ext"}{{$}}
func.func private @ext() -> tensor<8xf32>

func.func private @two() -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<3.0> : tensor<8xf32>
  %i = stablehlo.iota dim = 0 : tensor<8xf32>
  return %c, %i : tensor<8xf32>, tensor<8xf32>
}

func.func @declaration_and_two_results(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = func.call @ext() : () -> tensor<8xf32>
  %1:2 = func.call @two() : () -> (tensor<8xf32>, tensor<8xf32>)
  %2 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %3 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  %4 = stablehlo.custom_call @foo(%1#1, %1#0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
