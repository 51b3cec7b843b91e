// RUN: sdy-dsl opt %s -sdy-add-func-data-flow-edges -split-input-file -verify-diagnostics

// Several functions and none named main: the entry is unknown.
// expected-error @+1 {{no function is named 'main' and the module has several; sdy-add-func-data-flow-edges needs the main one}}
func.func @entry(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @helper(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
