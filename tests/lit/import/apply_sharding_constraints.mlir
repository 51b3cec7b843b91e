// RUN: sdy-dsl opt %s -sdy-apply-sharding-constraints -split-input-file | filecheck %s
// RUN: sdy-dsl opt %s -sdy-apply-sharding-constraints='debug-sharding-origins=true' -split-input-file | filecheck %s --check-prefix=ORIGINS
// RUN: sdy-dsl opt %s -sdy-apply-sharding-constraints='debug-propagation-edge-sharding=true' -split-input-file | filecheck %s --check-prefix=EDGES

// Manual computations below carry `sdy.data_flow_edge`s on their body
// arguments and results, as after -sdy-add-data-flow-edges: with
// debug-sharding-origins the reference dereferences those edges
// unconditionally (it crashes without them). A manual-computation operand
// that is itself a data-flow edge is left out: there the reference creates a
// new constraint and, in that mode, crashes on it.

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The constraint's sharding is copied onto its unsharded input, and the
// constraint gets its identity sharding rule. Uses of the input by ops that
// are neither constraints nor manual computations do not matter.
// CHECK-LABEL: func @applies_to_op_result
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:  %[[SC:.*]] = sdy.sharding_constraint %[[ADD]] <@mesh, [{"a"}, {}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
// CHECK-NEXT:  %[[MUL:.*]] = stablehlo.multiply %[[ADD]], %[[ADD]] : tensor<8x8xf32>
// CHECK-NEXT:  return %[[MUL]]
func.func @applies_to_op_result(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.multiply %0, %0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A function argument takes the sharding as an argument attribute.
// CHECK-LABEL: func @applies_to_func_arg(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
// CHECK-NEXT:  sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}
func.func @applies_to_func_arg(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Rank-0 tensors are handled like the others: `[]` is fully closed.
// CHECK-LABEL: func @applies_to_rank0
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : tensor<f32>
// CHECK-NEXT:  sdy.sharding_constraint %[[ABS]] <@mesh, []> {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([])>} : tensor<f32>
func.func @applies_to_rank0(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.abs %arg0 : tensor<f32>
  %1 = sdy.sharding_constraint %0 <@mesh, []> : tensor<f32>
  return %1 : tensor<f32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Setting one result of a multi-result op gives the other results fully open
// shardings on the same mesh.
// CHECK-LABEL: func @other_results_become_open
// CHECK:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"a"}]>]>}
// CHECK-NEXT:  sdy.sharding_constraint %{{.*}}#1 <@mesh, [{"a"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
func.func @other_results_become_open(%arg0: tensor<i32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg1 : tensor<8xf32>, tensor<8xf32>
  }) : (tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = sdy.sharding_constraint %0#1 <@mesh, [{"a"}]> : tensor<8xf32>
  return %0#0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The input already has a sharding: nothing changes.
// CHECK-LABEL: func @input_already_sharded
// CHECK-NEXT:  stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
// CHECK-NEXT:  sdy.sharding_constraint %{{.*}} <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
func.func @input_already_sharded(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An open dimension in the constraint: nothing changes.
// CHECK-LABEL: func @open_constraint_not_applied
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
// CHECK-NEXT:  sdy.sharding_constraint %[[ADD]] <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
func.func @open_constraint_not_applied(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Two constraints with different shardings on one tensor: neither applies.
// CHECK-LABEL: func @conflicting_constraints
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
// CHECK-NEXT:  sdy.sharding_constraint %[[ADD]] <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:  sdy.sharding_constraint %[[ADD]] <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
func.func @conflicting_constraints(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Two constraints with the same sharding: the first applies; the second then
// sees a sharded input and is left alone (no sharding rule).
// CHECK-LABEL: func @identical_constraints
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT:  sdy.sharding_constraint %[[ADD]] <@mesh, [{"a"}, {}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}
// CHECK-NEXT:  sdy.sharding_constraint %[[ADD]] <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
func.func @identical_constraints(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A manual computation using the tensor with another in-sharding blocks the
// constraint (and the manual computation's own in-sharding).
// CHECK-LABEL: func @manual_computation_user_with_other_sharding
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
// CHECK-NEXT:  sdy.sharding_constraint %[[ADD]] <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
func.func @manual_computation_user_with_other_sharding(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<4x8xf32>) {
    %4 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
    sdy.return %4 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A manual computation's in-sharding is a constraint on its operand: it is
// copied onto the operand. The manual computation has no sharding rule, so
// none is attached.
// CHECK-LABEL: func @manual_computation_in_sharding_applies
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:  sdy.manual_computation(%[[ADD]]) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"}
// CHECK-NOT:   sdy.sharding_rule
func.func @manual_computation_in_sharding_applies(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<4x8xf32>) {
    %3 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An open in-sharding of a manual computation is not applied.
// CHECK-LABEL: func @manual_computation_open_in_sharding
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
// CHECK-NEXT:  sdy.manual_computation(%[[ADD]]) in_shardings=[<@mesh, [{"b"}, {?}]>]
func.func @manual_computation_open_in_sharding(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {?}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<4x8xf32>) {
    %3 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {?}]> : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The input is a data-flow edge that already holds a sharding: nothing
// changes (no move, no rule).
// CHECK-LABEL: func @edge_input_already_sharded
// CHECK:         %[[EDGE:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT:    %[[ABS:.*]] = stablehlo.abs %[[EDGE]] : tensor<4xf32>
// CHECK-NEXT:    sdy.sharding_constraint %[[EDGE]] <@mesh, [{"b"}]> : tensor<4xf32>
func.func @edge_input_already_sharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}]> : tensor<4xf32>
    %3 = stablehlo.abs %2 : tensor<4xf32>
    %4 = sdy.sharding_constraint %2 <@mesh, [{"b"}]> : tensor<4xf32>
    %5 = stablehlo.add %3, %4 : tensor<4xf32>
    sdy.return %5 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The input is a data-flow edge: instead of sharding it (which would shard
// every target of the edge), the constraint moves right after the input and
// takes over all of the input's other uses, earlier ones included. No rule is
// attached on this path.
// CHECK-LABEL: func @edge_input_uses_go_through_constraint
// CHECK-NEXT:  %[[B:.*]] = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
// CHECK-NEXT:  %[[EDGE:.*]] = sdy.data_flow_edge %[[B]] : tensor<8xf32>
// CHECK-NEXT:  %[[SC:.*]] = sdy.sharding_constraint %[[EDGE]] <@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %[[SC]] : tensor<8xf32>
// CHECK-NEXT:  %[[NEG:.*]] = stablehlo.negate %[[SC]] : tensor<8xf32>
// CHECK-NEXT:  return %[[ABS]], %[[SC]]
func.func @edge_input_uses_go_through_constraint(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = stablehlo.abs %1 : tensor<8xf32>
  %3 = stablehlo.negate %1 : tensor<8xf32>
  %4 = sdy.sharding_constraint %1 <@mesh, [{"a"}]> : tensor<8xf32>
  return %2, %4 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A while body argument is a non-owner target of the edge owned by the while
// result: the constraint moves to the start of the body and replaces the
// argument's uses.
// CHECK-LABEL: func @edge_target_block_arg
// CHECK:       } do {
// CHECK-NEXT:    %[[SC:.*]] = sdy.sharding_constraint %[[ARG:.*]] <@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:    %[[ABS:.*]] = stablehlo.abs %[[SC]] : tensor<8xf32>
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[ABS]], %[[SC]] : tensor<8xf32>
// CHECK-NEXT:    stablehlo.return %[[ADD]] : tensor<8xf32>
// CHECK-NEXT:  }
// CHECK-NOT:   sdy.sharding =
func.func @edge_target_block_arg(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %2 = stablehlo.abs %iterArg : tensor<8xf32>
    %3 = sdy.sharding_constraint %iterArg <@mesh, [{"b"}]> : tensor<8xf32>
    %4 = stablehlo.add %2, %3 : tensor<8xf32>
    stablehlo.return %4 : tensor<8xf32>
  }
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Without a data-flow edge, a while body argument is sharded through its
// owner: the while result's `sdy.sharding`.
// CHECK-LABEL: func @block_arg_without_edge_shards_owner
// CHECK:       stablehlo.while(%{{.*}} = %arg0) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>}
// CHECK:       } do {
// CHECK-NEXT:    sdy.sharding_constraint %{{.*}} <@mesh, [{"b"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
func.func @block_arg_without_edge_shards_owner(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{"b"}]> : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A named computation's body argument without an edge is sharded through the
// op's `in_shardings`.
// CHECK-LABEL: func @named_computation_arg_without_edge
// CHECK-NEXT:  sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"a"}]>]
// CHECK-NEXT:    sdy.sharding_constraint %{{.*}} <@mesh, [{"a"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
func.func @named_computation_arg_without_edge(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}]> : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Unreduced axes do not propagate, so on the edge path they are also set on
// the edge itself: its sharding becomes fully open plus those unreduced axes.
// CHECK-LABEL: func @edge_input_with_unreduced
// CHECK-NEXT:  %[[B:.*]] = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
// CHECK-NEXT:  %[[EDGE:.*]] = sdy.data_flow_edge %[[B]] sharding=<@mesh, [{?}], unreduced={"b"}> : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_constraint %[[EDGE]] <@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
func.func @edge_input_with_unreduced(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A scalar block argument of a reduce body cannot hold a sharding: nothing
// changes.
// CHECK-LABEL: func @unshardable_block_arg
// CHECK:       reducer(%[[A:.*]]: tensor<f32>, %{{.*}}: tensor<f32>)
// CHECK-NEXT:    sdy.sharding_constraint %[[A]] <@mesh, []> : tensor<f32>
func.func @unshardable_block_arg(%arg0: tensor<8xf32>) -> tensor<f32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %1 = sdy.sharding_constraint %a <@mesh, []> : tensor<f32>
    %2 = stablehlo.add %1, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Chain rule: %0 -> constraint -> constraint, the head having a single use.
// Uses of %0 after the tail, in the same block, and not by func.return are
// rewired to the tail; the use before the tail and the returned %0 stay.
// The head is also applied normally.
// CHECK-LABEL: func @chain_rewires_later_uses
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NEXT:  %[[NEG:.*]] = stablehlo.negate %[[ABS]] : tensor<8xf32>
// CHECK-NEXT:  %[[HEAD:.*]] = sdy.sharding_constraint %[[ABS]] <@mesh, [{"a"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
// CHECK-NEXT:  %[[TAIL:.*]] = sdy.sharding_constraint %[[HEAD]] <@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:  %[[EXP:.*]] = stablehlo.exponential %[[TAIL]] : tensor<8xf32>
// CHECK-NEXT:  %[[ADD:.*]] = stablehlo.add %[[TAIL]], %[[TAIL]] : tensor<8xf32>
// CHECK-NEXT:  return %[[ABS]], %[[EXP]], %[[ADD]]
func.func @chain_rewires_later_uses(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{"a"}]> : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"b"}]> : tensor<8xf32>
  %4 = stablehlo.exponential %0 : tensor<8xf32>
  %5 = stablehlo.add %3, %0 : tensor<8xf32>
  return %0, %4, %5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Chain rule with an open head (not applied itself): uses in a nested region
// (another block) are not rewired, later uses in the same block are.
// CHECK-LABEL: func @chain_skips_other_blocks
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0 : tensor<8xf32>
// CHECK-NEXT:  %[[HEAD:.*]] = sdy.sharding_constraint %[[ABS]] <@mesh, [{"a", ?}]> : tensor<8xf32>
// CHECK-NEXT:  %[[TAIL:.*]] = sdy.sharding_constraint %[[HEAD]] <@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:  "stablehlo.case"(%arg1) ({
// CHECK-NEXT:    stablehlo.exponential %[[ABS]] : tensor<8xf32>
// CHECK:       stablehlo.exponential %[[TAIL]] : tensor<8xf32>
func.func @chain_skips_other_blocks(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}]> : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"b"}]> : tensor<8xf32>
  %3 = "stablehlo.case"(%arg1) ({
    %5 = stablehlo.exponential %0 : tensor<8xf32>
    stablehlo.return %5 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %4 = stablehlo.exponential %0 : tensor<8xf32>
  return %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Not a chain: the head has two uses, so later uses of %0 keep %0.
// CHECK-LABEL: func @chain_head_with_two_uses
// CHECK:       %[[HEAD:.*]] = sdy.sharding_constraint %[[ABS:.*]] <@mesh, [{"a"}]>
// CHECK-NEXT:  %[[SECOND:.*]] = sdy.sharding_constraint %[[HEAD]] <@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:  stablehlo.exponential %[[ABS]] : tensor<8xf32>
// CHECK-NEXT:  stablehlo.add %[[SECOND]], %[[HEAD]] : tensor<8xf32>
func.func @chain_head_with_two_uses(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}]> : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"b"}]> : tensor<8xf32>
  %3 = stablehlo.exponential %0 : tensor<8xf32>
  %4 = stablehlo.add %2, %1 : tensor<8xf32>
  return %3, %4 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Not a chain: the last constraint has another constraint among its users.
// CHECK-LABEL: func @chain_tail_used_by_constraint
// CHECK:       %[[HEAD:.*]] = sdy.sharding_constraint %[[ABS:.*]] <@mesh, [{"a"}]>
// CHECK:       stablehlo.exponential %[[ABS]] : tensor<8xf32>
func.func @chain_tail_used_by_constraint(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}]> : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"b"}]> : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}]> : tensor<8xf32>
  %4 = stablehlo.negate %2 : tensor<8xf32>
  %5 = stablehlo.exponential %0 : tensor<8xf32>
  return %5, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Not a chain: the chain's input already has a sharding.
// CHECK-LABEL: func @chain_input_already_sharded
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>}
// CHECK-NEXT:  %[[HEAD:.*]] = sdy.sharding_constraint %[[ABS]] <@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_constraint %[[HEAD]] <@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:  stablehlo.exponential %[[ABS]] : tensor<8xf32>
func.func @chain_input_already_sharded(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>} : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}]> : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"b"}]> : tensor<8xf32>
  %3 = stablehlo.exponential %0 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4]>

// debug-sharding-origins: each constraint is named `constraint_<n>` (module
// walk order) and records where each axis came from; applied shardings carry
// `sdy.sharding_origins`; func arguments/results get them as attributes.
// debug-propagation-edge-sharding: each applied constraint records the step
// and the result-0 -> operand-0 edge per axis.
// CHECK-LABEL: func @debug_info
// ORIGINS-LABEL: func @debug_info(
// ORIGINS-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>, sdy.sharding_origins = {c = "constraint_2"}})
// ORIGINS-SAME:    -> (tensor<8x8xf32> {sdy.sharding_origins = {a = "constraint_1"}},
// ORIGINS-SAME:        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>, sdy.sharding_origins = {a = "self", c = "constraint_2"}}) {
// ORIGINS-NEXT:  %[[ADD:.*]] = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "c":(1)2}, {"b"}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "constraint_0", "c:(1)2" = "constraint_0"}]}
// ORIGINS-NEXT:  %[[SC0:.*]] = sdy.sharding_constraint %[[ADD]] <@mesh, [{"a", "c":(1)2}, {"b"}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self", b = "self", "c:(1)2" = "self"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}
// ORIGINS-NEXT:  %[[MUL:.*]] = stablehlo.multiply %[[SC0]], %[[SC0]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>, sdy.sharding_origins = [{a = "constraint_1"}]}
// ORIGINS-NEXT:  sdy.sharding_constraint %[[MUL]] <@mesh, [{}, {"a"}]> {sdy.sharding_origin_name = "constraint_1", sdy.sharding_origins = {a = "self"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}
// ORIGINS-NEXT:  sdy.sharding_constraint %arg0 <@mesh, [{"c"}, {}]> {sdy.sharding_origin_name = "constraint_2", sdy.sharding_origins = {a = "output: 1", c = "self"}}
// EDGES-LABEL: func @debug_info
// EDGES-NEXT:  stablehlo.add
// EDGES-NEXT:  sdy.sharding_constraint %{{.*}} <@mesh, [{"a", "c":(1)2}, {"b"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}, {"b" = result-0 -> [operand-0]}, {"c":(1)2 = result-0 -> [operand-0]}]}]>, sdy.sharding_rule
// EDGES-NEXT:  stablehlo.multiply
// EDGES-NEXT:  sdy.sharding_constraint %{{.*}} <@mesh, [{}, {"a"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0]}]}]>, sdy.sharding_rule
// EDGES-NEXT:  sdy.sharding_constraint %arg0 <@mesh, [{"c"}, {}]> : tensor<8x8xf32>
func.func @debug_info(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", "c":(1)2}, {"b"}]> : tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %1 : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  %4 = sdy.sharding_constraint %arg0 <@mesh, [{"c"}, {}]> : tensor<8x8xf32>
  return %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// debug-sharding-origins with a manual computation: it is named `mc_<n>`; the
// edges of its body arguments/results record the in/out-sharding axes
// (manual ones included) as `self`. No rule exists for the manual computation,
// so the operand gets no origins.
// CHECK-LABEL: func @debug_manual_computation
// ORIGINS-LABEL: func @debug_manual_computation(
// ORIGINS-SAME:    -> (tensor<8x8xf32> {sdy.sharding_origins = {b = "mc_0_output: 0"}})
// ORIGINS-NEXT:  stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {"a"}]>]>} : tensor<8x8xf32>
// ORIGINS:       sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"a"}]> {sdy.sharding_origins = {a = "self", b = "self"}}
// ORIGINS:       } {sdy.sharding_origin_name = "mc_0"}
// ORIGINS-NEXT:  sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"b"}, {}]> {sdy.sharding_origins = {b = "self"}}
func.func @debug_manual_computation(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {"a"}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<4x8xf32>) {
    %3 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"a"}]> : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// debug-sharding-origins on functions: an argument / result sharding is
// `input: i` / `output: i` (shown as `self` on that argument / result);
// origins recorded earlier win, and an applied constraint adds its axes. A
// value returned twice gives only one result attribute: the one Shardy finds
// first in the value's use list (the last operand). The constraint counter
// runs over the whole module, and so does the step counter.
// CHECK-LABEL: func @debug_function_origins
// ORIGINS-LABEL: func @debug_function_origins(
// ORIGINS-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>, sdy.sharding_origins = {c = "self"}})
// ORIGINS-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>, sdy.sharding_origins = {a = "constraint_0", b = "self"}},
// ORIGINS-SAME:        tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding_origins = {a = "constraint_1"}}) {
// ORIGINS-NEXT:  stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "output: 0"}]}
// ORIGINS-NEXT:  sdy.sharding_constraint %{{.*}} {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self", b = "self"}, sdy.sharding_rule
// ORIGINS-NEXT:  stablehlo.multiply %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>, sdy.sharding_origins = [{a = "constraint_1"}]}
// ORIGINS-LABEL: func @debug_second_function(
// ORIGINS-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>, sdy.sharding_origins = {c = "constraint_2"}})
// ORIGINS-SAME:    -> (tensor<8xf32> {sdy.sharding_origins = {b = "constraint_3"}}) {
// ORIGINS-NEXT:  sdy.sharding_constraint %arg0 <@mesh, [{"c"}]> {sdy.sharding_origin_name = "constraint_2", sdy.sharding_origins = {c = "self"}} : tensor<8xf32>
// EDGES-LABEL: func @debug_function_origins
// EDGES:       sdy.sharding_constraint {{.*}} {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}, {"b" = result-0 -> [operand-0]}]}]>
// EDGES:       sdy.sharding_constraint {{.*}} {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0]}]}]>
// EDGES-LABEL: func @debug_second_function
// EDGES-NEXT:  sdy.sharding_constraint %arg0 <@mesh, [{"c"}]> : tensor<8xf32>
// EDGES:       sdy.sharding_constraint {{.*}} {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"b" = result-0 -> [operand-0]}]}]>
func.func @debug_function_origins(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %1 : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0, %2, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

func.func @debug_second_function(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"c"}]> : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"b"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// A step is counted when the constraint's sharding projection changed: not
// for `[]` (nothing to project), but for `[{}]` (the dimension becomes
// closed), which has no axis and so no edge and no origins. Only dimension
// axes are recorded, not replicated / unreduced ones. On a multi-result op,
// the other results get empty dictionaries.
// CHECK-LABEL: func @debug_steps
// ORIGINS-LABEL: func @debug_steps(
// ORIGINS-SAME:    -> (tensor<f32>, tensor<8xf32>, tensor<8xf32> {sdy.sharding_origins = {c = "constraint_2"}}) {
// ORIGINS:       sdy.sharding_constraint %{{.*}} <@mesh, []> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_rule
// ORIGINS:       sdy.sharding_constraint %{{.*}} <@mesh, [{}]> {sdy.sharding_origin_name = "constraint_1", sdy.sharding_rule
// ORIGINS:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"c"}], replicated={"a"}, unreduced={"b"}>]>, sdy.sharding_origins = [{}, {c = "constraint_2"}]}
// ORIGINS-NEXT:  sdy.sharding_constraint %{{.*}}#1 {{.*}} {sdy.sharding_origin_name = "constraint_2", sdy.sharding_origins = {c = "self"}, sdy.sharding_rule
// EDGES-LABEL: func @debug_steps
// EDGES:       sdy.sharding_constraint %{{.*}} <@mesh, []> {sdy.sharding_rule
// EDGES:       sdy.sharding_constraint %{{.*}} <@mesh, [{}]> {sdy.sharding_rule
// EDGES:       sdy.sharding_constraint %{{.*}}#1 {{.*}} {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"c" = result-0 -> [operand-0]}]}]>
func.func @debug_steps(%arg0: tensor<f32>, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> (tensor<f32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<f32>
  %1 = sdy.sharding_constraint %0 <@mesh, []> : tensor<f32>
  %2 = stablehlo.abs %arg1 : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}]> : tensor<8xf32>
  %4:2 = "stablehlo.case"(%arg2) ({
    stablehlo.return %arg1, %arg1 : tensor<8xf32>, tensor<8xf32>
  }) : (tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>)
  %5 = sdy.sharding_constraint %4#1 <@mesh, [{"c"}], replicated={"a"}, unreduced={"b"}> : tensor<8xf32>
  return %1, %3, %5 : tensor<f32>, tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// A while body argument stands for the while result (its edge, if it has
// one): the origins applied to the argument land on the while, and the axes
// of an already sharded argument are recorded on the result's edge.
// CHECK-LABEL: func @debug_while_body_args
// ORIGINS-LABEL: func @debug_while_body_args(
// ORIGINS-SAME:    -> (tensor<8xf32> {sdy.sharding_origins = {b = "constraint_0"}}, tensor<8xf32> {sdy.sharding_origins = {a = "constraint_1"}}) {
// ORIGINS-NEXT:  stablehlo.while{{.*}} attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>, sdy.sharding_origins = [{b = "constraint_0"}]}
// ORIGINS:       sdy.sharding_constraint %{{.*}} {sdy.sharding_origin_name = "constraint_1", sdy.sharding_origins = {b = "self"}} : tensor<8xf32>
// ORIGINS:       sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"a"}]> {sdy.sharding_origins = {a = "constraint_1"}}
// EDGES-LABEL: func @debug_while_body_args
// EDGES:       sdy.sharding_constraint %{{.*}} {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"b" = result-0 -> [operand-0]}]}]>
func.func @debug_while_body_args(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{"b"}]> : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  %2 = stablehlo.while(%iterArg = %arg1) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %4 = sdy.sharding_constraint %iterArg <@mesh, [{"b"}]> : tensor<8xf32>
    stablehlo.return %4 : tensor<8xf32>
  }
  %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %0, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// A constraint on a data-flow edge is moved, not applied through its rule:
// no step, no edge, and only its own origins.
// CHECK-LABEL: func @debug_edge_input
// ORIGINS-LABEL: func @debug_edge_input(
// ORIGINS-SAME:    -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding_origins = {a = "constraint_0"}}) {
// ORIGINS:       sdy.data_flow_edge %{{.*}} : tensor<8xf32>
// ORIGINS-NEXT:  sdy.sharding_constraint %{{.*}} <@mesh, [{"a"}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self"}} : tensor<8xf32>
// EDGES-LABEL: func @debug_edge_input
// EDGES:       sdy.sharding_constraint %{{.*}} <@mesh, [{"a"}]> : tensor<8xf32>
func.func @debug_edge_input(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = stablehlo.abs %1 : tensor<8xf32>
  %3 = sdy.sharding_constraint %1 <@mesh, [{"a"}]> : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// Manual computations are named in post-order (the nested one first) and
// recorded in that order: the nested one records its operand's own axis `b`
// first, so the outer one's `b` on that edge is not `self`.
// CHECK-LABEL: func @debug_nested_manual_computations
// ORIGINS-LABEL: func @debug_nested_manual_computations(
// ORIGINS-SAME:    -> (tensor<8x8xf32> {sdy.sharding_origins = {a = "mc_1_output: 0"}}) {
// ORIGINS:         sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"b"}]> {sdy.sharding_origins = {a = "self", b = "mc_0_input: 0"}}
// ORIGINS:           sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {}]> {sdy.sharding_origins = {b = "self"}}
// ORIGINS:         } {sdy.sharding_origin_name = "mc_0"}
// ORIGINS:       } {sdy.sharding_origin_name = "mc_1"}
func.func @debug_nested_manual_computations(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"b"}]> : tensor<4x8xf32>
    %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"b"} (%arg2: tensor<4x4xf32>) {
      %3 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {}]> : tensor<4x4xf32>
      sdy.return %3 : tensor<4x4xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = sdy.data_flow_edge %2 sharding=<@mesh, [{}, {"b"}]> : tensor<4x8xf32>
    sdy.return %4 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %5 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// An operand that already has a sharding gets its axes recorded as coming
// from the manual computation's in-sharding (before functions are recorded,
// so not `input: 0`); an operand sharded by this pass gets no origins.
// Replicated axes are not recorded.
// CHECK-LABEL: func @debug_sharded_manual_computation_operand
// ORIGINS-LABEL: func @debug_sharded_manual_computation_operand(
// ORIGINS-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, sdy.sharding_origins = {a = "mc_0_input: 0"}},
// ORIGINS-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}], replicated={"c"}>})
// ORIGINS-SAME:    -> (tensor<8x8xf32> {sdy.sharding_origins = {a = "mc_0_output: 0"}}, tensor<8x8xf32> {sdy.sharding_origins = {a = "mc_0_output: 1", c = "mc_0_output: 1"}}) {
// ORIGINS-NEXT:    sdy.manual_computation
// ORIGINS-NEXT:    sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {}]> {sdy.sharding_origins = {a = "self"}}
// ORIGINS-NEXT:    sdy.data_flow_edge %arg3 sharding=<@mesh, [{"b"}, {}], replicated={"c"}> {sdy.sharding_origins = {a = "self", b = "self"}}
func.func @debug_sharded_manual_computation_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a", "b"}, {}], replicated={"c"}>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {"c"}]>] manual_axes={"a"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4x8xf32>) {
    %1 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
    %2 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{"b"}, {}], replicated={"c"}> : tensor<4x8xf32>
    sdy.return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %3 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %4 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"a"}, {"c"}]> : tensor<8x8xf32>
  return %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A while body argument whose result has an edge: the unreduced axes of the
// constraint go on that edge, not on the while's `sdy.sharding`.
// CHECK-LABEL: func @while_body_arg_constraint_with_unreduced
// CHECK:       %[[WHILE:.*]] = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>{{$}}
// CHECK:       sdy.sharding_constraint %iterArg <@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
// CHECK:       sdy.data_flow_edge %[[WHILE]] sharding=<@mesh, [{?}], unreduced={"b"}> : tensor<8xf32>
func.func @while_body_arg_constraint_with_unreduced(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  %2 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A while body argument is sharded when the edge of its result is (the
// while op itself has no `sdy.sharding`): the constraint is not applied, and
// with debug-sharding-origins the edge's axes are recorded as the constraint's.
// CHECK-LABEL: func @while_body_arg_sharded_by_its_edge
// CHECK:       } do {
// CHECK-NEXT:    sdy.sharding_constraint %iterArg <@mesh, [{"b"}]> : tensor<8xf32>
// CHECK-NEXT:    stablehlo.abs %iterArg
// CHECK:       sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"a"}]> : tensor<8xf32>
// ORIGINS-LABEL: func @while_body_arg_sharded_by_its_edge(
// ORIGINS-SAME:    -> (tensor<8xf32> {sdy.sharding_origins = {a = "constraint_0"}})
// ORIGINS:       sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"a"}]> {sdy.sharding_origins = {a = "constraint_0"}}
func.func @while_body_arg_sharded_by_its_edge(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{"b"}]> : tensor<8xf32>
    %2 = stablehlo.abs %iterArg : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %3 : tensor<8xf32>
}
