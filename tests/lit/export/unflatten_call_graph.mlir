// RUN: sdy-dsl opt %s -sdy-unflatten-call-graph -split-input-file | filecheck %s --check-prefixes=CHECK,KEEP
// RUN: sdy-dsl opt %s -sdy-unflatten-call-graph='dedup-functions-fully=true' -split-input-file | filecheck %s --check-prefixes=CHECK,DEDUP

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Functions of one origin with the same shardings: every call calls the
// first call's callee.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[C0:.*]] = call @f_1(%arg0)
// CHECK-NEXT:    %[[C1:.*]] = call @f_1(%[[C0]])
// CHECK-NEXT:    call @f_1(%[[C1]])
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f_1(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @f_0(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

func.func private @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}

func.func private @f_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}

func.func private @f_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Functions of one origin with different shardings stay apart. With
// dedup-functions-fully, a callee replaces the chosen one when its shardings
// become strictly the most called: here @f_1, whose call makes the second
// sharding's count 2.
// CHECK-LABEL: func @main(
// KEEP-NEXT:     %[[C0:.*]] = call @f(%arg0)
// KEEP-NEXT:     %[[C1:.*]] = call @f_0(%[[C0]])
// KEEP-NEXT:     call @f_0(%[[C1]])
// DEDUP-NEXT:    %[[C0:.*]] = call @f_1(%arg0)
// DEDUP-NEXT:    %[[C1:.*]] = call @f_1(%[[C0]])
// DEDUP-NEXT:    call @f_1(%[[C1]])
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @f_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

func.func private @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}

func.func private @f_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}

func.func private @f_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// With dedup-functions-fully, a tie keeps the first call's callee.
// CHECK-LABEL: func @main(
// KEEP-NEXT:     %[[C0:.*]] = call @f(%arg0)
// KEEP-NEXT:     call @f_0(%[[C0]])
// DEDUP-NEXT:    %[[C0:.*]] = call @f(%arg0)
// DEDUP-NEXT:    call @f(%[[C0]])
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func private @f_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A missing sharding counts as fully open on the mesh of the others: these
// two functions have the same shardings.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[C0:.*]] = call @f(%arg0, %arg1)
// CHECK-NEXT:    call @f(%[[C0]], %arg1)
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0, %arg1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%0, %arg1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func private @f_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Functions of one origin with different manual axes stay apart, even with
// dedup-functions-fully; every function loses its origin and manual axes,
// called or not.
// CHECK-LABEL: func @main(
// CHECK:         func.call @g_0(%arg1)
// CHECK:         call @g(
// CHECK-LABEL: func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-LABEL: func private @g_0(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-LABEL: func private @unused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @g_0(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @g(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func private @g_0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {sdy.original_func_name = "g", sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  return %arg0 : tensor<4xf32>
}

func.func private @unused(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {sdy.original_func_name = "g", sdy.func_manual_axes = #sdy<manual_axes{"y"}>} {
  return %arg0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Calls are taken in module order, nested ones where they occur: @main's
// call of @k comes before @h_0's call of @k_0, so every call of origin k
// calls @k.
// CHECK-LABEL: func @main(
// CHECK-NEXT:    %[[H:.*]] = call @h_0(%arg0)
// CHECK-NEXT:    call @k(%[[H]])
// CHECK-LABEL: func private @h_0(
// CHECK-NEXT:    call @k(%arg0)
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @h_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @k(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @h_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "h"} {
  %0 = call @k_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @k(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func private @k_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "k"} {
  return %arg0 : tensor<8xf32>
}
