// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards -split-input-file -verify-diagnostics

// Where the reference aborts on a failed check, the pass reports a located
// error instead.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Without the full version, a result with unreduced axes needs every
// reduction factor sharded the same way on all operands.
func.func @unreduced_result_incompatible_reduction(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  // expected-error @+1 {{For the operation 'stablehlo.dot_general', the result has unreduced axes while the operand has incompatible sharding along reduction factors.}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
