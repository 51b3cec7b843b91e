// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards='enable-full-version=true' -split-input-file -verify-diagnostics

// Where the reference crashes (a segfault, or a failed check that aborts the
// process), the pass reports a located error instead.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// The reference segfaults: a declaration has no body, hence no return.
// expected-error @+1 {{cannot insert explicit reshards in a function declaration (it has no body)}}
func.func private @declaration(tensor<8xf32>) -> tensor<8xf32>

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// The reference segfaults: overflow axes of a reshape to a scalar have no
// factor to go to ("x"=4 overflows the first factor, of size 3).
func.func @reshape_to_scalar_with_overflow(%arg0: tensor<1x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<f32> {
  // expected-error @+1 {{cannot redistribute overflow axes of a reshape to or from a scalar}}
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([]) {i=3, j=4, k=1}>} : (tensor<1x1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @unreduced_operand_of_op_without_results(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  // expected-error @+1 {{Some operands have unreduced axes but the operation has no results.}}
  stablehlo.custom_call @sink(%arg0) : (tensor<8x8xf32>) -> ()
  return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @results_with_different_unreduced_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // expected-error @+1 {{Unreduced axes mismatch between results for multi-result op.}}
  %0:2 = stablehlo.custom_call @two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>, <@mesh, [{}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @other = <["x"=2, "y"=4]>

func.func @unreduced_operand_other_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{source and user shardings have different meshes for unreduced axes.}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@other, [{}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @other = <["x"=2, "y"=4]>

func.func @reshard_to_unreduced_other_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{Input and output shardings have different meshes. The result has non-empty unreduced axes.}}
  %0 = sdy.reshard %arg0 <@other, [{}, {}], unreduced={"x"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @reshard_swapping_unreduced_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{Both input and output have unreduced axes that does not appear in the other.}}
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// The reference segfaults: the op's common mesh is an inlined one.
func.func @inlined_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{shardings with an inlined mesh are not supported here (run sdy-lift-inlined-meshes first)}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{}, {"x"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
