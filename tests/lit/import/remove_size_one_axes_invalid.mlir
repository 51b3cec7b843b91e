// RUN: sdy-dsl opt %s -sdy-remove-size-one-axes -split-input-file -verify-diagnostics

// Reference quirk: only shardings are rewritten, not the axis lists of sdy
// collectives. Here the gathering axis "a" (size one) stays while the pass
// removes it from the operand's sharding, so the result fails verification.
sdy.mesh @mesh = <["a"=1, "b"=2]>

func.func @collective_axis_list_not_rewritten(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op can't apply gathering axis "a" to operand sharding on dimension 0}}
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
