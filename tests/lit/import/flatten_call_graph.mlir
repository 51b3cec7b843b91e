// RUN: sdy-dsl opt %s -sdy-flatten-call-graph -split-input-file | filecheck %s

// A second call of a function calls a copy, appended to the module with the
// original name; the first call keeps the function.
// CHECK-LABEL: func @main
// CHECK-NEXT:  %[[FIRST:.*]] = call @twice(%arg0)
// CHECK-NEXT:  call @twice_0(%[[FIRST]])
// CHECK:       func.func private @twice(
// CHECK:       func.func private @twice_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "twice"} {
// CHECK-NEXT:    stablehlo.negate %arg0
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @twice(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @twice(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A copy calls copies of its callees, appended before it; one counter names
// every copy of the run.
// CHECK-LABEL: func @main
// CHECK-NEXT:  call @outer(%arg0)
// CHECK-NEXT:  call @outer_1(
// CHECK-NEXT:  call @outer_3(
// CHECK:       func.func private @outer(
// CHECK-NEXT:    call @inner(%arg0)
// CHECK:       func.func private @inner(
// CHECK:       func.func private @inner_0({{.*}} attributes {sdy.original_func_name = "inner"}
// CHECK:       func.func private @outer_1({{.*}} attributes {sdy.original_func_name = "outer"}
// CHECK-NEXT:    call @inner_0(%arg0)
// CHECK:       func.func private @inner_2({{.*}} attributes {sdy.original_func_name = "inner"}
// CHECK:       func.func private @outer_3({{.*}} attributes {sdy.original_func_name = "outer"}
// CHECK-NEXT:    call @inner_2(%arg0)
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @outer(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @outer(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @outer(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @outer(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @inner(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @inner(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Callees are visited before their callers: the call in @user is the first
// call of @helper, so @main's later call is the one that gets a copy.
// CHECK-LABEL: func @main
// CHECK-NEXT:  call @helper_0(%arg0)
// CHECK-NEXT:  call @user(
// CHECK:       func.func private @user(
// CHECK-NEXT:    call @helper(%arg0)
// CHECK:       func.func private @helper_0({{.*}} attributes {sdy.original_func_name = "helper"}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @user(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @user(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @helper(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// A taken name is skipped, and a copy of a copy keeps the first original name.
// CHECK-LABEL: func @main
// CHECK-NEXT:  call @f_3(%arg0)
// CHECK-NEXT:  call @f_3_1(
// CHECK:       func.func private @f_3_0(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:       func.func private @f_3_1({{.*}} attributes {sdy.original_func_name = "f"}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f_3(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_3(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @f_3(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
func.func private @f_3_0(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// Calls in region bodies count, in program order; a declaration called twice
// is copied like any function.
// CHECK-LABEL: func @main
// CHECK-NEXT:  call @external(%arg0)
// CHECK:       } do {
// CHECK-NEXT:    func.call @external_0(
// CHECK:       func.func private @external(tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:  func.func private @external_0(tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "external"}
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0 = call @external(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1:2 = stablehlo.while(%iterArg = %0, %iterArg_1 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = func.call @external(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %2, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %1#0 : tensor<8xf32>
}
func.func private @external(tensor<8xf32>) -> tensor<8xf32>

// -----

// A function called again is copied with what it calls now: @a's call of @b
// already went to the copy @b_1 (the second call of @b), so @a's copy copies
// @b_1 and, inside it, @b_1's callee @c_0 (copies of copies).
// CHECK-LABEL: func @main
// CHECK:         call @a_4(
// CHECK-LABEL: func.func private @a(
// CHECK-NEXT:    call @b_1(
// CHECK-LABEL: func.func private @b_1(
// CHECK-NEXT:    call @c_0(
// CHECK-LABEL: func.func private @c_0_2(
// CHECK-SAME:    attributes {sdy.original_func_name = "c"}
// CHECK-LABEL: func.func private @b_1_3(
// CHECK-SAME:    attributes {sdy.original_func_name = "b"}
// CHECK-NEXT:    call @c_0_2(
// CHECK-LABEL: func.func private @a_4(
// CHECK-SAME:    attributes {sdy.original_func_name = "a"}
// CHECK-NEXT:    call @b_1_3(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @d(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @a(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @a(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @d(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @b(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @a(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @b(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @b(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @c(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @c(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
