// RUN: sdy-dsl opt %s -sdy-reshard-to-collectives -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Axes that leave the sharding are gathered, axes that join it are sliced.
// CHECK-LABEL: func @gather_then_slice
func.func @gather_then_slice(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"z"}, {}] %arg0 out_sharding=<@mesh, [{"x", "z"}, {"y"}]>
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{}, {"y"}] %[[S]] out_sharding=<@mesh, [{"x", "z"}, {}]>
  // CHECK-NEXT: return %[[G]]
  %0 = sdy.reshard %arg0 <@mesh, [{"x", "z"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// An axis that moves to another dimension is an all-to-all.
// CHECK-LABEL: func @move_between_dims
func.func @move_between_dims(%arg0: tensor<16x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {"z"}]>}) -> tensor<16x8x4xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}, {"z"}]>
  // CHECK-NEXT: %[[B:.*]] = sdy.all_to_all [{"z"}: 2->1] %[[A]] out_sharding=<@mesh, [{"x"}, {"y", "z"}, {}]>
  // CHECK-NEXT: return %[[B]]
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y", "z"}, {}]> : tensor<16x8x4xf32>
  return %0 : tensor<16x8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Two dimensions swapping their axes is one collective permute.
// CHECK-LABEL: func @swap_axes
func.func @swap_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>
  // CHECK-NEXT: return %[[P]]
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @mesh_reversed = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

// Same axes on a mesh of another device order: a collective permute only.
// CHECK-LABEL: func @device_order
func.func @device_order(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh_reversed, [{"x"}, {"y"}]>
  // CHECK-NEXT: return %[[P]]
  %0 = sdy.reshard %arg0 <@mesh_reversed, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=8, "y"=2]>

// Sub-axes: the missing part of "x" is sliced, the part in the wrong
// dimension moved.
// CHECK-LABEL: func @sub_axes
func.func @sub_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"x":(4)2, "y"}, {}] %arg0 out_sharding=<@mesh, [{"x":(1)2, "x":(4)2, "y"}, {"x":(2)2}]>
  // CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %[[S]] out_sharding=<@mesh, [{"x"}, {"y"}]>
  // CHECK-NEXT: return %[[P]]
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// The operand's sharding is read through a propagation barrier, and the
// collectives take the barrier's operand.
// CHECK-LABEL: func @through_barrier
func.func @through_barrier(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: sdy.propagation_barrier
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]>
  // CHECK-NEXT: return %[[G]]
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<16x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// A redundant reshard goes; so does one from replicated to replicated.
// CHECK-LABEL: func @redundant
func.func @redundant(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<4xf32>) -> (tensor<16x8xf32>, tensor<4xf32>) {
  // CHECK-NEXT: return %arg0, %arg1
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %1 = sdy.reshard %arg1 <@mesh, [{}]> : tensor<4xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Unreduced axes stay on every collective's sharding.
// CHECK-LABEL: func @unreduced_kept
func.func @unreduced_kept(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"z"}>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}], unreduced={"z"}>
  // CHECK-NEXT: return %[[A]]
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"x"}], unreduced={"z"}> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// A chain of reshards: each reshard starts from the previous one's sharding.
// CHECK-LABEL: func @chain
func.func @chain(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"z"}, {}] %arg0 out_sharding=<@mesh, [{"x", "z"}, {"y"}]>
  // CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %[[S]] out_sharding=<@mesh, [{"y", "z"}, {"x"}]>
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{}, {"x"}] %[[P]] out_sharding=<@mesh, [{"y", "z"}, {}]>
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"y", "z"}: 0->1] %[[G]] out_sharding=<@mesh, [{}, {"y", "z"}]>
  // CHECK-NEXT: return %[[A]]
  %0 = sdy.reshard %arg0 <@mesh, [{"y", "z"}, {}]> : tensor<16x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"y", "z"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Reshards in nested regions are lowered too.
// CHECK-LABEL: func @nested
func.func @nested(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i1>) -> tensor<16x8xf32> {
  // CHECK-NEXT: stablehlo.if
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]>
  // CHECK-NEXT: stablehlo.return %[[A]]
  %0 = "stablehlo.if"(%arg1) ({
    %1 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<16x8xf32>
    stablehlo.return %1 : tensor<16x8xf32>
  }, {
    stablehlo.return %arg0 : tensor<16x8xf32>
  }) : (tensor<i1>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @single = <[], device_ids=[0]>

// A reshard to or from a single device stays.
// CHECK-LABEL: func @single_device
func.func @single_device(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@single, []>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.reshard %arg0 <@single, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
