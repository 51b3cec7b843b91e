// RUN: sdy-dsl opt %s -sdy-basic-propagate='debug-propagation-edge-sharding=true' -split-input-file | filecheck %s
// RUN: sdy-dsl opt %s -sdy-aggressive-propagate='debug-propagation-edge-sharding=true' -split-input-file | filecheck %s --check-prefix=AGG
// RUN: sdy-dsl opt %s -sdy-op-priority-propagate='debug-propagation-edge-sharding=true' -split-input-file | filecheck %s --check-prefix=OP
// RUN: sdy-dsl opt %s -sdy-basic-propagate='debug-sharding-origins=true debug-propagation-edge-sharding=true' -split-input-file | filecheck %s --check-prefix=BOTH

// `sdy.propagation_edges` lists, per numbered propagation step that changed a
// sharding, each axis an op moved: from which operand/result to which others.
// Edges of func results (the func as the op: operand = the returned value,
// result = the func result) are saved on the func result attributes.

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// Steps are numbered across the whole pass: step 0 pushes the func result
// sharding to the returned value, the last step pulls it back to the result.
// CHECK-LABEL: func.func @func_inputs_and_output(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}
// CHECK-SAME:      %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>}
// CHECK-SAME:  -> (tensor<8x16xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"b" = result-0 -> [operand-0]}]}, {step-3 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.multiply %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [operand-1, result-0]}, {"c" = operand-1 -> [operand-0, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [result-0]}, {"b" = result-0 -> [operand-1]}, {"c" = operand-0 -> [operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  return %1 : tensor<8x16xf32>
// BOTH-LABEL: func.func @func_inputs_and_output(
// BOTH-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>, sdy.sharding_origins = {a = "self", c = "input: 1"}}
// BOTH-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>, sdy.sharding_origins = {a = "input: 0", c = "self"}}
// BOTH-SAME:      %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>, sdy.sharding_origins = {b = "output: 0", c = "input: 1"}}
// BOTH-SAME:  -> (tensor<8x16xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"b" = result-0 -> [operand-0]}]}, {step-3 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "self"}}) {
// BOTH-NEXT:  %0 = stablehlo.multiply %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [operand-1, result-0]}, {"c" = operand-1 -> [operand-0, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", c = "input: 1"}]} : tensor<8x8xf32>
// BOTH-NEXT:  %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [result-0]}, {"b" = result-0 -> [operand-1]}, {"c" = operand-0 -> [operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "output: 0"}]} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// BOTH-NEXT:  return %1 : tensor<8x16xf32>
func.func @func_inputs_and_output(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c", ?}]>},
    %arg2: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func.func @same_value_twice(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK-SAME:  -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.maximum %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0, operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT:  return %0 : tensor<8xf32>
func.func @same_value_twice(%arg0: tensor<8xf32>)
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
  %0 = stablehlo.maximum %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Every func result step is kept on result 0; the same edge of an axis
// (step 2: "a" from operand to result again) is recorded once.
// CHECK-LABEL: func.func @func_results_share_result_0(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:      %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}, {step-1 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
// CHECK-NEXT:  return %arg0, %arg1, %arg2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
func.func @func_results_share_result_0(
    %arg0: tensor<8x8xf32>,
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32>, tensor<8x8xf32>) {
  return %arg0, %arg1, %arg2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["c"=8]>

// Sub-axes of one dimension that merge back into the full axis count as "c".
// CHECK-LABEL: func.func @reshape_merges_sub_axes(
// CHECK-SAME:      %arg0: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2, ?}, {"c":(2)4, ?}]>}
// CHECK-SAME:  -> (tensor<32xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"c" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.reshape %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"c" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c", ?}]>]>} : (tensor<2x16xf32>) -> tensor<32xf32>
// CHECK-NEXT:  return %0 : tensor<32xf32>
func.func @reshape_merges_sub_axes(
    %arg0: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2, ?}, {"c":(2)4, ?}]>}) -> tensor<32xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<2x16xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh = <["c"=8]>

// CHECK-LABEL: func.func @sub_axis_grows(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)4, ?}, {?}]>}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"c":(1)2 = result-0 -> [operand-0]}]}, {step-2 = [{"c":(1)4 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)4, ?}, {?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.negate %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"c":(1)4 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c":(1)4, ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:  return %0 : tensor<8x8xf32>
func.func @sub_axis_grows(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)4, ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2, ?}, {?}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @sharding_constraint(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT:  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a", ?}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}, {"b" = result-0 -> [operand-0]}]}]>} : tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.tanh %0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:  return %1 : tensor<8x8xf32>
func.func @sharding_constraint(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
  %1 = stablehlo.tanh %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A manual computation's edges are saved on its sdy.data_flow_edge ops.
// CHECK-LABEL: func.func @manual_computation(
// CHECK-SAME:      %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-SAME:  -> (tensor<16x16xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-7 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.negate %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0]}]}, {step-5 = [{"b" = result-0 -> [operand-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<16x16xf32>
// CHECK-NEXT:  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] manual_axes={"a"} (%arg1: tensor<8x16xf32>) {
// CHECK-NEXT:  %4 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}, {step-4 = [{"b" = result-0 -> [operand-0]}]}]>} : tensor<8x16xf32>
// CHECK-NEXT:  %5 = stablehlo.abs %4 {sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{"b" = result-0 -> [operand-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:  sdy.return %5 : tensor<8x16xf32>
// CHECK-NEXT:  } : (tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT:  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"a", ?}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"b" = result-0 -> [operand-0]}]}]>} : tensor<16x16xf32>
// CHECK-NEXT:  %3 = stablehlo.exponential %2 {sdy.propagation_edges = #sdy.propagation_edges<[{step-6 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<16x16xf32>
// CHECK-NEXT:  return %3 : tensor<16x16xf32>
func.func @manual_computation(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<16x16xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] manual_axes={"a"} (%arg1: tensor<8x16xf32>) {
    %4 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {?}]> : tensor<8x16xf32>
    %5 = stablehlo.abs %4 : tensor<8x16xf32>
    sdy.return %5 : tensor<8x16xf32>
  } : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"a", ?}, {"b", ?}]> : tensor<16x16xf32>
  %3 = stablehlo.exponential %2 : tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Basic propagation stops at the conflict on the dot's lhs non-contracting
// dimension; aggressive propagation takes "a" from the larger operand.
// CHECK-LABEL: func.func @conflict_resolved_by_aggressive(
// CHECK-SAME:      %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:      %arg1: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
// CHECK-SAME:  -> tensor<8x32xf32> {
// CHECK-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT:  return %0 : tensor<8x32xf32>
// AGG-LABEL: func.func @conflict_resolved_by_aggressive(
// AGG-SAME:      %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// AGG-SAME:      %arg1: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
// AGG-SAME:  -> (tensor<8x32xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
// AGG-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-1 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
// AGG-NEXT:  return %0 : tensor<8x32xf32>
func.func @conflict_resolved_by_aggressive(
    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
    %arg1: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Op-priority propagation runs aggressive propagation once per heuristic;
// the step counter runs on across them.
// CHECK-LABEL: func.func @op_priority_steps(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}
// CHECK-SAME:      %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}, {step-2 = [{"b" = result-0 -> [operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.add %0, %arg2 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [operand-1, result-0]}, {"b" = operand-1 -> [operand-0, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:  return %1 : tensor<8x8xf32>
// OP-LABEL: func.func @op_priority_steps(
// OP-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// OP-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}
// OP-SAME:      %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// OP-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"b" = operand-0 -> [result-0]}]}, {step-4 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// OP-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [result-0]}, {"b" = result-0 -> [operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// OP-NEXT:  %1 = stablehlo.add %0, %arg2 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"b" = operand-1 -> [operand-0, result-0]}]}, {step-3 = [{"a" = operand-0 -> [operand-1, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// OP-NEXT:  return %1 : tensor<8x8xf32>
func.func @op_priority_steps(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
    %arg1: tensor<8x8xf32>,
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A sharding constraint is element-wise, so op-priority propagation moves it
// in the first round (pass-through ops): %0 takes "a" on its second dimension
// from the constraint before the dot could put "a" on the first.
// CHECK-LABEL: func.func @constraint_first_under_op_priority(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:      %arg1: tensor<8x8xf32>
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
// CHECK-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"a", ?}]> : tensor<8x8xf32>
// CHECK-NEXT:  return %1 : tensor<8x8xf32>
// OP-LABEL: func.func @constraint_first_under_op_priority(
// OP-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// OP-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
// OP-SAME:  -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
// OP-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = result-0 -> [operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// OP-NEXT:  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"a", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0]}]}]>} : tensor<8x8xf32>
// OP-NEXT:  return %1 : tensor<8x8xf32>
func.func @constraint_first_under_op_priority(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
    %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"a", ?}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
