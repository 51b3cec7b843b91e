// RUN: sdy-dsl opt %s -sdy-basic-propagate='debug-sharding-origins=true' -split-input-file | filecheck %s
// RUN: sdy-dsl opt %s -sdy-op-priority-propagate='debug-sharding-origins=true' -split-input-file | filecheck %s --check-prefix=OP
// RUN: sdy-dsl opt %s -sdy-user-priority-propagate='debug-sharding-origins=true' -split-input-file | filecheck %s --check-prefix=USER

// `sdy.sharding_origins` says, per axis of a value's sharding, which user
// sharding it came from: "input: i" / "output: i" (func argument / result),
// "constraint_N", "mc_N_input: i" / "mc_N_output: i" (manual computation), or
// "self" on the value that holds that user sharding itself.

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// CHECK-LABEL: func.func @func_inputs_and_output(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>, sdy.sharding_origins = {a = "self", c = "input: 1"}}
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>, sdy.sharding_origins = {a = "input: 0", c = "self"}}
// CHECK-SAME:      %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>, sdy.sharding_origins = {b = "output: 0", c = "input: 1"}}
// CHECK-SAME:  -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "self"}}) {
// CHECK-NEXT:  %0 = stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", c = "input: 1"}]} : tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "output: 0"}]} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  return %1 : tensor<8x16xf32>
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

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @chain_of_ops(
// CHECK-SAME:      %arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>, sdy.sharding_origins = {b = "self"}}
// CHECK-SAME:  -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>, sdy.sharding_origins = {b = "input: 0"}}) {
// CHECK-NEXT:  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>, sdy.sharding_origins = [{b = "input: 0"}]} : tensor<4x8xf32>
// CHECK-NEXT:  %1 = stablehlo.transpose %0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>, sdy.sharding_origins = [{b = "input: 0"}]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>, sdy.sharding_origins = [{b = "input: 0"}]} : tensor<8x4xf32>
// CHECK-NEXT:  return %2 : tensor<8x4xf32>
func.func @chain_of_ops(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4x8xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.abs %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @argument_returned_directly(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "self", b = "output: 0"}}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "self"}}) {
// CHECK-NEXT:  return %arg0 : tensor<8x8xf32>
func.func @argument_returned_directly(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @first_operand_wins(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:      %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:  -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>, sdy.sharding_origins = {a = "input: 0"}}) {
// CHECK-NEXT:  %0 = stablehlo.subtract %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>, sdy.sharding_origins = [{a = "input: 0"}]} : tensor<8xf32>
// CHECK-NEXT:  return %0 : tensor<8xf32>
func.func @first_operand_wins(
    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> tensor<8xf32> {
  %0 = stablehlo.subtract %arg0, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @sharding_constraints(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "constraint_0", b = "constraint_1"}}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "constraint_0", b = "constraint_1"}}) {
// CHECK-NEXT:  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"b", ?}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self", b = "constraint_1"}} : tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "constraint_1"}]} : tensor<8x8xf32>
// CHECK-NEXT:  %2 = sdy.sharding_constraint %1 <@mesh, [{"a", ?}, {"b"}]> {sdy.sharding_origin_name = "constraint_1", sdy.sharding_origins = {a = "constraint_0", b = "self"}} : tensor<8x8xf32>
// CHECK-NEXT:  return %2 : tensor<8x8xf32>
func.func @sharding_constraints(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  %1 = stablehlo.cosine %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {"b"}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The constraint's operand is seeded before the func arguments: the argument's
// own axis reads "constraint_0", not "self".
// CHECK-LABEL: func.func @constraint_on_sharded_argument(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "constraint_0", b = "constraint_0"}}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "constraint_0", b = "constraint_0"}}) {
// CHECK-NEXT:  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a", ?}, {"b", ?}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self", b = "self"}} : tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.sine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "constraint_0"}]} : tensor<8x8xf32>
// CHECK-NEXT:  return %1 : tensor<8x8xf32>
func.func @constraint_on_sharded_argument(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
  %1 = stablehlo.sine %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @manual_computation(
// CHECK-SAME:      %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_input: 0", b = "mc_0_output: 0"}}
// CHECK-SAME:  -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_output: 0", b = "mc_0_output: 0"}}) {
// CHECK-NEXT:  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "mc_0_input: 0", b = "mc_0_output: 0"}]} : tensor<16x16xf32>
// CHECK-NEXT:  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] manual_axes={"a"} (%arg1: tensor<8x16xf32>) {
// CHECK-NEXT:  %4 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {"b", ?}]> {sdy.sharding_origins = {a = "self", b = "mc_0_output: 0"}} : tensor<8x16xf32>
// CHECK-NEXT:  %5 = stablehlo.abs %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>, sdy.sharding_origins = [{b = "mc_0_output: 0"}]} : tensor<8x16xf32>
// CHECK-NEXT:  sdy.return %5 : tensor<8x16xf32>
// CHECK-NEXT:  } {sdy.sharding_origin_name = "mc_0"} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT:  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"a", ?}, {"b", ?}]> {sdy.sharding_origins = {a = "self", b = "self"}} : tensor<16x16xf32>
// CHECK-NEXT:  %3 = stablehlo.exponential %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "mc_0_output: 0", b = "mc_0_output: 0"}]} : tensor<16x16xf32>
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

// CHECK-LABEL: func.func @while_loop(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:      %arg1: tensor<i32>
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "input: 0"}}) {
// CHECK-NEXT:  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT:  cond {
// CHECK-NEXT:  %4 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:  stablehlo.return %4 : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  %4 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_origins = [{a = "input: 0"}]} : tensor<8x8xf32>
// CHECK-NEXT:  stablehlo.return %4, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a", ?}, {?}]> {sdy.sharding_origins = {a = "input: 0"}} : tensor<8x8xf32>
// CHECK-NEXT:  %2 = sdy.data_flow_edge %0#1 : tensor<i32>
// CHECK-NEXT:  %3 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_origins = [{a = "input: 0"}]} : tensor<8x8xf32>
// CHECK-NEXT:  return %3 : tensor<8x8xf32>
func.func @while_loop(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.negate %iterArg : tensor<8x8xf32>
    stablehlo.return %4, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %1 = sdy.data_flow_edge %0#0 : tensor<8x8xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<i32>
  %3 = stablehlo.abs %1 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @multiple_results(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:      %arg1: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "input: 0"}}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "input: 0"}}, tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "input: 0"}}) {
// CHECK-NEXT:  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT:  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
// CHECK-NEXT:  %1 = stablehlo.compare GT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:  stablehlo.return %1 : tensor<i1>
// CHECK-NEXT:  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>, <@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_origins = [{a = "input: 0"}, {a = "input: 0"}]} : (tensor<8x8xf32>, tensor<8x8xi32>) -> (tensor<8x8xf32>, tensor<8x8xi32>)
// CHECK-NEXT:  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xi32>
func.func @multiple_results(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xi32>)
    -> (tensor<8x8xf32>, tensor<8x8xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<i32>, %b1: tensor<i32>):
    %c = stablehlo.compare GT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<8x8xf32>, tensor<8x8xi32>) -> (tensor<8x8xf32>, tensor<8x8xi32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xi32>
}

// -----

sdy.mesh @mesh = <["c"=8]>

// The result keeps the origin of its own smaller sub-axis next to the larger one.
// CHECK-LABEL: func.func @sub_axis_grows(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)4, ?}, {?}]>, sdy.sharding_origins = {"c:(1)4" = "self"}}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)4, ?}, {?}]>, sdy.sharding_origins = {"c:(1)2" = "self", "c:(1)4" = "input: 0"}}) {
// CHECK-NEXT:  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c":(1)4, ?}, {?}]>]>, sdy.sharding_origins = [{"c:(1)2" = "output: 0", "c:(1)4" = "input: 0"}]} : tensor<8x8xf32>
// CHECK-NEXT:  return %0 : tensor<8x8xf32>
func.func @sub_axis_grows(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)4, ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2, ?}, {?}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["c"=8]>

// CHECK-LABEL: func.func @reshape_splits_axis(
// CHECK-SAME:      %arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}]>, sdy.sharding_origins = {c = "self"}}
// CHECK-SAME:  -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2, ?}, {"c":(2)4, ?}]>, sdy.sharding_origins = {"c:(1)2" = "input: 0", "c:(2)4" = "input: 0"}}) {
// CHECK-NEXT:  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c":(1)2, ?}, {"c":(2)4, ?}]>]>, sdy.sharding_origins = [{"c:(1)2" = "input: 0", "c:(2)4" = "input: 0"}]} : (tensor<32xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  return %0 : tensor<2x16xf32>
func.func @reshape_splits_axis(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}]>}) -> tensor<2x16xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A value returned twice gives its dictionary to one func result only: the
// last one (its first use in use-list order).
// CHECK-LABEL: func.func @value_returned_twice(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "self", b = "output: 1"}}
// CHECK-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "self"}}) {
// CHECK-NEXT:  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "output: 1"}]} : tensor<8x8xf32>
// CHECK-NEXT:  return %0, %0 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @value_returned_twice(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Basic propagation runs the dot first (%0 takes "a" from %arg0, then the add
// conflicts); op-priority runs the element-wise add first (%0 takes "a" from %arg2).
// CHECK-LABEL: func.func @op_priority_changes_origin(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:      %arg1: tensor<8x8xf32>
// CHECK-SAME:      %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:  -> tensor<8x8xf32> {
// CHECK-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_origins = [{a = "input: 0"}]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
// CHECK-NEXT:  return %1 : tensor<8x8xf32>
// OP-LABEL: func.func @op_priority_changes_origin(
// OP-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "self"}}
// OP-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>, sdy.sharding_origins = {a = "input: 2"}}
// OP-SAME:      %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>, sdy.sharding_origins = {a = "self"}}
// OP-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>, sdy.sharding_origins = {a = "input: 2"}}) {
// OP-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>, sdy.sharding_origins = [{a = "input: 2"}]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// OP-NEXT:  %1 = stablehlo.add %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>, sdy.sharding_origins = [{a = "input: 2"}]} : tensor<8x8xf32>
// OP-NEXT:  return %1 : tensor<8x8xf32>
func.func @op_priority_changes_origin(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
    %arg1: tensor<8x8xf32>,
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Basic propagation stops at the conflict on the add; with user priorities p0
// ("b" from %arg1) propagates first and wins it.
// CHECK-LABEL: func.func @user_priorities(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {?}]>, sdy.sharding_origins = {a = "self"}}
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}p0, {?}]>, sdy.sharding_origins = {b = "self"}}
// CHECK-SAME:  -> tensor<8x8xf32> {
// CHECK-NEXT:  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT:  return %0 : tensor<8x8xf32>
// USER-LABEL: func.func @user_priorities(
// USER-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "self"}}
// USER-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>, sdy.sharding_origins = {b = "self"}}
// USER-SAME:  -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>, sdy.sharding_origins = {b = "input: 1"}}) {
// USER-NEXT:  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>, sdy.sharding_origins = [{b = "input: 1"}]} : tensor<8x8xf32>
// USER-NEXT:  return %0 : tensor<8x8xf32>
func.func @user_priorities(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {?}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}p0, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
