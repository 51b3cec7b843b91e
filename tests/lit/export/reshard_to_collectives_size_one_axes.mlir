// RUN: sdy-dsl opt %s -sdy-reshard-to-collectives -split-input-file | filecheck %s

// A size-one axis is a full axis: it overlaps itself (issue 24: its empty
// range made "b" not overlap "b", so gathering kept it or permuting
// duplicated it).
sdy.mesh @mesh = <["a"=2, "b"=1, "c"=2]>

// CHECK-LABEL: func @gather_with_size_one_axis
// CHECK-NEXT:  %[[G:.*]] = sdy.all_gather [{"b", "a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x2xf32>
// CHECK-NEXT:  return %[[G]]
func.func @gather_with_size_one_axis(%arg0: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}, {}]>}) -> tensor<16x2xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=1, "c"=2]>

// CHECK-LABEL: func @permute_with_size_one_axis
// CHECK-NEXT:  %[[S:.*]] = sdy.all_slice [{}, {"b", "c"}] %arg0 out_sharding=<@mesh, [{"a"}, {"b", "c"}]> : tensor<16x2xf32>
// CHECK-NEXT:  %[[P:.*]] = sdy.collective_permute %[[S]] out_sharding=<@mesh, [{"b", "c"}, {"a"}]> : tensor<16x2xf32>
// CHECK-NEXT:  return %[[P]]
func.func @permute_with_size_one_axis(%arg0: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<16x2xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"b", "c"}, {"a"}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}
