// RUN: sdy-dsl opt %s -sdy-populate-op-sharding-rules -split-input-file | filecheck %s

// A dynamic_update_slice whose start indices are all constant-like (the
// trait in rules/interfaces.yaml) needs no replication of its update's
// sliced dimensions; otherwise they need replication.
// CHECK-LABEL: func @update_at_constant_indices
// CHECK:       sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=16, j=4, k=8}>}
// CHECK:       sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=16, j=4, k=8} need_replication={j}>
func.func @update_at_constant_indices(%arg0: tensor<16x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<i32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = sdy.constant dense<3> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c1, %c0 : (tensor<16x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
  %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c0 : (tensor<16x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// A gather's collapsed slice dimension of size 1 is replicated (sharding it
// is meaningless); a larger one is a reduction.
// CHECK-LABEL: func @gather_collapses_a_unit_dimension
// CHECK:       sdy.sharding_rule = #sdy.op_sharding_rule<([k, l, j], [i, m])->([i, j]) {i=5, j=6, k=1, l=4, m=2} reduction={l} need_replication={k, m}>
func.func @gather_collapses_a_unit_dimension(%arg0: tensor<1x4x6xf32>, %arg1: tensor<5x2xi64>) -> tensor<5x6xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1, 6>, indices_are_sorted = false
  } : (tensor<1x4x6xf32>, tensor<5x2xi64>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
