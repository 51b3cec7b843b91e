// RUN: sdy-dsl opt %s -sdy-update-non-divisible-input-output-shardings -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Each dimension keeps the longest prefix of its axes that divides it evenly,
// taking gcd-sized sub-axes: an axis is kept whole while its size divides
// what is left of the dimension; otherwise its first gcd-sized part is kept
// (none if the gcd is 1) and the axes after it are dropped.
// CHECK-LABEL: func @func_arguments(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}
// CHECK-SAME:    %arg1: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"y"}]>}
// CHECK-SAME:    %arg2: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}
// CHECK-SAME:    %arg3: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}
// CHECK-SAME:    %arg4: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2}]>}
// CHECK-SAME:    %arg5: tensor<f32>
// CHECK-SAME:    %arg6: tensor<6xf32>)
func.func @func_arguments(
    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
    %arg1: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
    %arg2: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>},
    %arg3: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>},
    %arg4: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>},
    %arg5: tensor<f32>, %arg6: tensor<6xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh3 = <["p"=3, "x"=4]>

// Sub-axes of the result continue from the sub-axis they start from; a
// non-power-of-two axis works the same way.
// CHECK-LABEL: func @sub_axes(
// CHECK-SAME:    %arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"x":(1)2}]>}
// CHECK-SAME:    %arg1: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"x":(2)2, "p"}]>}
// CHECK-SAME:    %arg2: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{}]>}
// CHECK-SAME:    %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"x":(2)2}]>}
func.func @sub_axes(
    %arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"x", "p"}]>},
    %arg1: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"x":(2)2, "p"}]>},
    %arg2: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"p", "x"}]>},
    %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh3, [{"x":(2)2, "p"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Results are updated like arguments; results without a sharding stay without.
// Replicated and unreduced axes are kept. A non-divisible dimension loses
// its priority (evenly divisible ones keep theirs).
// CHECK-LABEL: func @results_replicated_unreduced_priority(
// CHECK-SAME:    %arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}, {"y"}p0]>}
// CHECK-SAME:    %arg1: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}], unreduced={"y"}>}
// CHECK-SAME:    %arg2: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}], replicated={"y"}>}
// CHECK-SAME:    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<6xf32>)
func.func @results_replicated_unreduced_priority(
    %arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {"y"}p0]>},
    %arg1: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>},
    %arg2: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], replicated={"y"}>})
    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}, tensor<6xf32>) {
  return %arg1, %arg1 : tensor<6xf32>, tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// func.call results are updated as well.
// CHECK-LABEL: func @call_results
// CHECK-NEXT:  call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}]>]>}
func.func @call_results(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %0 = func.call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

func.func private @callee(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  return %arg0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=4]>

// A manual computation keeps its edge-owner shardings divisible: in-shardings
// are checked on the local (body argument) shape without the manual axes,
// which are then put back in front; out-shardings on the global result shape.
// CHECK-LABEL: func @manual_computation
// CHECK-NEXT:  sdy.manual_computation(%arg0)
// CHECK-SAME:    in_shardings=[<@mesh, [{"y", "x":(1)2}, {"z":(1)2}]>]
// CHECK-SAME:    out_shardings=[<@mesh, [{"y", "x"}, {"z":(1)2}]>]
func.func @manual_computation(%arg0: tensor<12x6xf32>) -> tensor<16x6xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y", "x"}, {"z"}]>] out_shardings=[<@mesh, [{"y", "x"}, {"z"}]>] manual_axes={"y"} (%arg1: tensor<6x6xf32>) {
    %1 = stablehlo.concatenate %arg1, %arg1, dim = 0 : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<12x6xf32>
    %2 = stablehlo.slice %1 [0:8, 0:6] : (tensor<12x6xf32>) -> tensor<8x6xf32>
    sdy.return %2 : tensor<8x6xf32>
  } : (tensor<12x6xf32>) -> tensor<16x6xf32>
  return %0 : tensor<16x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Other ops are left alone: while, named computation and plain op shardings
// (the data-flow ops do not ask to stay divisible).
// CHECK-LABEL: func @other_ops_untouched
// CHECK:       stablehlo.while{{.*}}attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
// CHECK:       sdy.named_computation<"foo">(%{{.*}}) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>]
// CHECK:       stablehlo.abs %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
func.func @other_ops_untouched(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<6xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<6xf32>
  }
  %1 = sdy.named_computation<"foo">(%0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] (%arg1: tensor<6xf32>) {
    sdy.return %arg1 : tensor<6xf32>
  } : (tensor<6xf32>) -> tensor<6xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<6xf32>
  return %2 : tensor<6xf32>
}
