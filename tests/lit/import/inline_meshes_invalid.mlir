// RUN: sdy-dsl opt %s -sdy-inline-meshes -split-input-file -verify-diagnostics

// A reference to a mesh that does not exist is rejected by the verifier, so
// the pass never has to inline an unknown mesh.
sdy.mesh @mesh = <["x"=2]>

func.func @unknown_mesh_in_constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op unknown mesh: @not_a_mesh}}
  %0 = sdy.sharding_constraint %arg0 <@not_a_mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A symbol that exists but is not an sdy.mesh is not a mesh either.
func.func @not_a_mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// expected-error @+1 {{'func.func' op result 0 - unknown mesh: @not_a_mesh}}
func.func @func_symbol_as_mesh(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@not_a_mesh, [{}, {}]>}) {
  return %arg0 : tensor<8x8xf32>
}
