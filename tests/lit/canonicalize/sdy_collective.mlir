// RUN: sdy-dsl opt %s -canonicalize='enable-patterns={sdy-collective} max-iterations=10 region-simplify=aggressive' | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Collectives over no axes, and a permute to the operand's own sharding, go.
// CHECK-LABEL: func @noops
func.func @noops(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: return %arg0
  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{}, {}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %2 = sdy.all_reduce {} %1 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %3 = sdy.collective_permute %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %4 = sdy.reduce_scatter [{}, {}] %3 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %4 : tensor<16x8xf32>
}

// An all-slice undoing an all-gather is the gather's operand (the gather,
// not trivially dead, stays).
// CHECK-LABEL: func @slice_of_gather
func.func @slice_of_gather(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: sdy.all_gather
  // CHECK-NEXT: return %arg0
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// Over other axes, it stays.
// CHECK-LABEL: func @slice_of_gather_other_axes
func.func @slice_of_gather_other_axes(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather
  // CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"z"}, {}] %[[G]]
  // CHECK-NEXT: return %[[S]]
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{"z"}, {}] %0 out_sharding=<@mesh, [{"z"}, {"y"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// Two all-to-alls over distinct dimensions fuse, ordered by source dimension.
// CHECK-LABEL: func @all_to_all_fusion
func.func @all_to_all_fusion(%arg0 : tensor<16x8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) -> tensor<16x8x8x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 0->3, {"y"}: 1->2] %arg0 out_sharding=<@mesh, [{}, {}, {"y"}, {"x"}]>
  // CHECK-NEXT: return %[[A]]
  %0 = sdy.all_to_all [{"y"}: 1->2] %arg0 out_sharding=<@mesh, [{"x"}, {}, {"y"}, {}]> : tensor<16x8x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->3] %0 out_sharding=<@mesh, [{}, {}, {"y"}, {"x"}]> : tensor<16x8x8x8xf32>
  return %1 : tensor<16x8x8x8xf32>
}

// Sharing dimension 1, they do not.
// CHECK-LABEL: func @all_to_all_shared_dim
func.func @all_to_all_shared_dim(%arg0 : tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) -> tensor<16x8x8xf32> {
  // CHECK-NEXT: sdy.all_to_all [{"y"}: 1->2]
  // CHECK-NEXT: sdy.all_to_all [{"x"}: 0->1]
  %0 = sdy.all_to_all [{"y"}: 1->2] %arg0 out_sharding=<@mesh, [{"x"}, {}, {"y"}]> : tensor<16x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"x"}, {"y"}]> : tensor<16x8x8xf32>
  return %1 : tensor<16x8x8xf32>
}

// An unused all-to-all goes; MLIR's canonicalization drops dead pure ops.
// CHECK-LABEL: func @unused
func.func @unused(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: return %arg0
  %0 = sdy.all_to_all [{"y"}: 1->0] %arg0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<16x8xf32>
  %1 = stablehlo.add %arg0, %arg0 : tensor<16x8xf32>
  return %arg0 : tensor<16x8xf32>
}

// An all-reduce then all-slice is a reduce-scatter (plus an all-slice of the
// axes that are not reduced).
// CHECK-LABEL: func @reduce_scatter_fusion
func.func @reduce_scatter_fusion(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>
  // CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"z"}, {"y"}] %[[RS]] out_sharding=<@mesh, [{"x", "z"}, {"y"}]>
  // CHECK-NEXT: return %[[S]]
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{"x", "z"}, {"y"}] %0 out_sharding=<@mesh, [{"x", "z"}, {"y"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// An all-reduce undoing replicated-to-unreduced is its operand; undoing
// sharded-to-unreduced, an all-gather.
// CHECK-LABEL: func @unreduced_round_trips
func.func @unreduced_round_trips(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                                 %arg1 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  // CHECK-NEXT: sdy.replicated_to_unreduced
  // CHECK-NEXT: sdy.sharded_to_unreduced
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]>
  // CHECK-NEXT: return %arg0, %[[G]]
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x"}> : tensor<16x8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  %2 = sdy.sharded_to_unreduced [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}], unreduced={"x"}> : tensor<16x8xf32>
  %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  return %1, %3 : tensor<16x8xf32>, tensor<16x8xf32>
}

// sdy-reshard patterns are not enabled here.
// CHECK-LABEL: func @reshards_untouched
func.func @reshards_untouched(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"y"}, {}]>
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[A]] <@mesh, [{"z"}, {}]>
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"z"}, {}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// MLIR's folder hoists each constant to the front of its block before any
// dead op goes: two constants a dead op separated end up in reverse order.
// CHECK-LABEL: func @dead_op_between_constants
func.func @dead_op_between_constants() -> (tensor<4x8xi32>, tensor<4x8xi32>) {
  // CHECK-NEXT: %[[C3:.*]] = stablehlo.constant dense<3>
  // CHECK-NEXT: %[[C2:.*]] = stablehlo.constant dense<2>
  // CHECK-NEXT: return %[[C2]], %[[C3]]
  %c = stablehlo.constant dense<1> : tensor<4x8xi32>
  %0 = sdy.reshard %c <@mesh, [{"x"}, {}]> : tensor<4x8xi32>
  %c_0 = stablehlo.constant dense<2> : tensor<4x8xi32>
  %c_1 = stablehlo.constant dense<3> : tensor<4x8xi32>
  return %c_0, %c_1 : tensor<4x8xi32>, tensor<4x8xi32>
}

// A dead constant still unifies with an equal one hoisted out of a nested
// region, before it would be erased: it keeps its place after the hoisted ones.
// CHECK-LABEL: func @dead_constant_before_nested_ones
func.func @dead_constant_before_nested_ones(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  // CHECK-NEXT: sdy.named_computation
  // CHECK-NEXT:   %[[T:.*]] = stablehlo.constant dense<true>
  // CHECK-NEXT:   %[[Z:.*]] = stablehlo.constant dense<0>
  // CHECK-NEXT:   stablehlo.while
  // CHECK-NEXT:   cond
  // CHECK-NEXT:     stablehlo.return %[[T]]
  // CHECK-NEXT:   } do {
  // CHECK-NEXT:     stablehlo.return %[[Z]]
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xi32>) {
    %c = stablehlo.constant dense<0> : tensor<8xi32>
    %1 = stablehlo.while(%iterArg = %arg1) : tensor<8xi32>
    cond {
      %c_0 = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c_0 : tensor<i1>
    } do {
      %c_0 = stablehlo.constant dense<0> : tensor<8xi32>
      stablehlo.return %c_0 : tensor<8xi32>
    }
    sdy.return %1 : tensor<8xi32>
  } : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
