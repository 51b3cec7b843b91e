// RUN: sdy-dsl opt %s -sdy-insert-explicit-reshards='enable-full-version=true' -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Operands and results agree factor by factor: nothing is inserted.
// CHECK-LABEL: func @compatible_no_reshard(
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
func.func @compatible_no_reshard(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Three tensors: the candidate loop picks, per factor, the axes most
// elements are already sharded with; the odd operand is resharded before.
// CHECK-LABEL: func @elementwise_majority(
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @elementwise_majority(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A result that changes is resharded back to its old sharding after the op,
// for every other user.
// CHECK-LABEL: func @result_resharded_back(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.negate %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %5 = sdy.reshard %3 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %6 = sdy.reshard %4 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %5, %6 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @result_resharded_back(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Two tensors: the one with the larger sharding wins (same size, no
// permutation factor); the other takes its axes.
// CHECK-LABEL: func @unary_larger_sharding_wins(
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @unary_larger_sharding_wins(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Two tensors: on a tie the lower index (the operand) wins.
// CHECK-LABEL: func @unary_tie_operand_wins(
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @unary_tie_operand_wins(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Two tensors: the larger tensor wins over the larger sharding.
// CHECK-LABEL: func @unary_larger_tensor_wins(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.broadcast_in_dim %0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
func.func @unary_larger_tensor_wins(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Two tensors: a tensor with a sharded permutation factor loses even when larger.
// CHECK-LABEL: func @unary_sharded_permutation_loses(
// CHECK-NEXT: %0 = stablehlo.slice %arg0 [0:8, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
func.func @unary_sharded_permutation_loses(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.slice %arg0 [0:8, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// The op's own sdy.sharding_rule is used. Two tensors: the preferred one's axes
// win; a factor only the other has keeps its axes up to the first overlap.
// CHECK-LABEL: func @attached_rule_unary_truncation(
// CHECK-NEXT: %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=4, k=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<8x4xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: return %2 : tensor<8x4xf32>
func.func @attached_rule_unary_truncation(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=4, k=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A `custom` rule: the op is left alone.
// CHECK-LABEL: func @custom_rule_skipped(
// CHECK-NEXT: %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}, custom>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %0 : tensor<8x4xf32>
func.func @custom_rule_skipped(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}, custom>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Candidate loop on a dot: lhs and rhs disagree on the contracting factor;
// the chosen contracting axes need an all-reduce after the op.
// CHECK-LABEL: func @dot_heuristic_and_all_reduce(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<8x32xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %3 : tensor<8x16xf32>
func.func @dot_heuristic_and_all_reduce(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Compatible shardings with a sharded contracting factor: no reshard, but
// an all-reduce over the contracting axes after the op.
// CHECK-LABEL: func @compatible_reduction_all_reduce(
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
func.func @compatible_reduction_all_reduce(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A multi-result reduce: one all-reduce per result, in result order, before
// the result reshards.
// CHECK-LABEL: func @multi_result_reduce(
// CHECK-NEXT: %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, [{"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<f32>, %arg7: tensor<f32>)  {
// CHECK-NEXT: %5 = stablehlo.add %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: %6 = stablehlo.add %arg6, %arg7 : tensor<f32>
// CHECK-NEXT: stablehlo.return %5, %6 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = sdy.all_reduce {"x"} %0#0 out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
// CHECK-NEXT: %2 = sdy.all_reduce {"x"} %0#1 out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
// CHECK-NEXT: %3 = sdy.reshard %1 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: %4 = sdy.reshard %2 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: return %3, %4 : tensor<8xf32>, tensor<8xf32>
func.func @multi_result_reduce(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg2: tensor<f32>, %arg3: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {
    %1 = stablehlo.add %a, %b : tensor<f32>
    %2 = stablehlo.add %c, %d : tensor<f32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Need-replication factors (the matrix dims of cholesky) are cleared; their
// axes go to the batching factor when they fit.
// CHECK-LABEL: func @need_replication_to_batching(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}, {}]> : tensor<8x4x4xf32>
// CHECK-NEXT: %1 = stablehlo.cholesky %0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}, {}]>]>} : tensor<8x4x4xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {"y"}, {}]> : tensor<8x4x4xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}, {}]> : tensor<8x4x4xf32>
// CHECK-NEXT: return %3 : tensor<8x4x4xf32>
func.func @need_replication_to_batching(%arg0: tensor<8x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}]>}) -> tensor<8x4x4xf32> {
  %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}, {}]>]>} : tensor<8x4x4xf32>
  return %0 : tensor<8x4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Axes of a need-replication factor that do not fit the batching factor are dropped.
// CHECK-LABEL: func @need_replication_axes_dropped(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}, {}]> : tensor<2x4x4xf32>
// CHECK-NEXT: %1 = stablehlo.cholesky %0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : tensor<2x4x4xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {"x"}, {}]> : tensor<2x4x4xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}, {}]> : tensor<2x4x4xf32>
// CHECK-NEXT: return %3 : tensor<2x4x4xf32>
func.func @need_replication_axes_dropped(%arg0: tensor<2x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) -> tensor<2x4x4xf32> {
  %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// An op without sdy.sharding: setting one result's sharding gives its
// siblings fully open shardings, which their reshards back then carry.
// CHECK-LABEL: func @open_sibling_results(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT: %1:2 = "stablehlo.sort"(%0, %arg1) <{dimension = 0 : i64, is_stable = true}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.compare GT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %4 : tensor<i1>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>, <@mesh, [{}, {"x"}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: %2 = sdy.reshard %1#0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %1#1 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @open_sibling_results(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %1 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A sharding behind a propagation barrier is read through it.
// CHECK-LABEL: func @through_propagation_barrier(
// CHECK-NEXT: %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.add %1, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %5 = sdy.reshard %4 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %5 : tensor<8x8xf32>
func.func @through_propagation_barrier(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A reshape whose axes do not split over the factors (no overflow): the
// usual resolution.
// CHECK-LABEL: func @reshape_without_overflow(
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<6x4xf32>) -> tensor<24xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}]> : tensor<24xf32>
// CHECK-NEXT: return %1 : tensor<24xf32>
func.func @reshape_without_overflow(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<24xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Overflow axes of a reshape ("x","y" over the factors 3 and 4 of 12): the
// more sharded side's axes are redistributed over each side's factors, and
// each factor keeps the common prefix.
// CHECK-LABEL: func @reshape_with_overflow(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<12xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<12xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %1 : tensor<3x4xf32>
func.func @reshape_with_overflow(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> tensor<3x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<12xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Returns: a value not equivalent to the result sharding is resharded; a null
// result sharding means closed replicated; open/closed differences are ignored.
// CHECK-LABEL: func @return_targets(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %0, %1, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
func.func @return_targets(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0, %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
