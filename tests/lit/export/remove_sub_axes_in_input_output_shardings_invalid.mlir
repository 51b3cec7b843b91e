// RUN: sdy-dsl opt %s -sdy-remove-sub-axes-in-input-output-shardings -verify-diagnostics

// Neither @main nor a single function: there is no main function to update
// (the reference aborts the process here).
// expected-error @+1 {{Failed to lookup function: main}}
module {
  sdy.mesh @mesh = <["x"=8]>
  func.func @first(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) -> tensor<64xf32> {
    return %arg0 : tensor<64xf32>
  }
  func.func @second(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    return %arg0 : tensor<64xf32>
  }
}
