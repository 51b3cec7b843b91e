// RUN: sdy-dsl opt %s -sdy-import-func-calls -split-input-file -verify-diagnostics

// A recursive call cannot become a named computation.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @loop(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @loop(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{call to @loop is recursive}}
  %0 = call @loop(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A function without a body gives a named computation without a block.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = call @external(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @external(tensor<8xf32>) -> tensor<8xf32>

// -----

// The multiple-call warning comes once per run, at the first call that needs
// a copy of a body.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-warning @+1 {{function @f has multiple call ops, we need to clone the function body for each call}}
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @g(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = call @g(%2) : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
