// RUN: sdy-dsl opt %s -sdy-pre-order-funcs -split-input-file | filecheck %s

// A chain written callees first ends up callers first.
// CHECK:      func.func @main(
// CHECK:      func.func private @middle(
// CHECK:      func.func private @leaf(
func.func private @leaf(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @middle(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @leaf(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @middle(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Functions no call links end up in the reverse of their module order.
// CHECK:      func.func @third()
// CHECK:      func.func @second()
// CHECK:      func.func @first()
func.func @first() {
  return
}
func.func @second() {
  return
}
func.func @third() {
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>

// Meshes and declarations stay where they are; every function with a body
// moves after them.
// CHECK:      sdy.mesh @mesh
// CHECK-NEXT: func.func private @declared(tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.mesh @other
// CHECK-NEXT: func.func @main(
// CHECK:      func.func private @defined(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @declared(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @defined(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @declared(tensor<8xf32>) -> tensor<8xf32>
sdy.mesh @other = <["b"=4]>
func.func private @defined(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// A diamond: a callee shared by two callers comes after both, and callees are
// reached in call order (including calls inside a while body).
// CHECK:      func.func @main(
// CHECK:      func.func private @right(
// CHECK:      func.func private @left(
// CHECK:      func.func private @shared(
func.func private @shared(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @left(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @shared(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @right(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = func.call @shared(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %1, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0 = call @right(%arg0, %arg1) : (tensor<8xf32>, tensor<i32>) -> tensor<8xf32>
  %1 = call @left(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
