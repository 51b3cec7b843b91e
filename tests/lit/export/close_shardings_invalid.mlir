// RUN: sdy-dsl opt %s -sdy-close-shardings -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Closing `{?}p2` gives `{}p2`, which the verifier rejects after the pass: the
// pass keeps priorities and does not drop the one of an emptied dimension.
// expected-error @+1 {{'func.func' op arg 0 - dim 1 is empty and closed but has a priority}}
func.func @open_empty_dim_with_priority_on_arg(
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {?}p2]>})
    -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @open_empty_dim_with_priority_on_op(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'stablehlo.negate' op result - dim 1 is empty and closed but has a priority}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}p0]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// The remaining cases are rejected by the verifier before the pass runs.
// expected-error @+1 {{'func.func' op arg 0 - unknown mesh: @missing}}
func.func @unknown_mesh(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@missing, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @unknown_axis(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'stablehlo.negate' op result - unknown axis name: "w"}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"w", ?}, {}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @rank_mismatch(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op sharding doesn't match tensor rank: 1 != 2}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", ?}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @sharding_count_mismatch(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op result shardings don't match number of values: 1 shardings vs 2 values}}
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// An axis may appear only once across dims and replicated axes.
// expected-error @+1 {{'func.func' op result 0 - duplicate axis ref: "x"}}
func.func @axis_in_dim_and_replicated(%arg0: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"x"}>}) {
  return %arg0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @sub_axis_as_big_as_axis(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'stablehlo.negate' op result - sub-axis size is equal to the full axis size: "x":(1)4}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)4, ?}, {}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A maximal mesh (no axes, one device) only admits a rank-0 sharding.
// expected-error @+1 {{'func.func' op arg 0 - a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes.}}
func.func @maximal_mesh_with_dims(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, [{?}, {?}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}
