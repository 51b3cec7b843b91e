// RUN: sdy-dsl opt %s -sdy-flatten-call-graph -split-input-file -verify-diagnostics

// A function calling itself cannot be flattened.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @loop(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @loop(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{call to @loop is recursive (@loop reaches this call again); the call graph must be acyclic}}
  %0 = call @loop(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Mutual recursion: the call closing the cycle is reported.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @ping(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @ping(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @pong(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @pong(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{call to @ping is recursive}}
  %0 = call @ping(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A call to no function is an error of the input (MLIR's verifier).
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op 'missing' does not reference a valid function}}
  %0 = call @missing(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// So is a call whose types disagree with its callee's.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'tensor<4xf32>', but provided 'tensor<8xf32>' for operand number 0}}
  %0 = call @narrow(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @narrow(%arg0: tensor<4xf32>) -> tensor<8xf32> {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
