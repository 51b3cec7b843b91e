sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p1, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}p0, {"a", ?}p2]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = sdy.propagation_barrier %arg1 allowed_direction=FORWARD : tensor<8x8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x8xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg1 : tensor<8x8xf32>
  %1 = stablehlo.abs %arg0 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  %2 = stablehlo.exponential %arg1 : tensor<8x8xf32>
  %3 = stablehlo.add %0, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  %0:2 = stablehlo.while(%it = %arg1, %v = %arg0) : tensor<i32>, tensor<8x8xf32>
    cond {
      %c = stablehlo.compare LT, %it, %it : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.negate %v : tensor<8x8xf32>
      %w = sdy.sharding_constraint %n <@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
      stablehlo.return %it, %w : tensor<i32>, tensor<8x8xf32>
    }
  %1 = stablehlo.abs %0#1 : tensor<8x8xf32>
  %2 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {"b", ?}]>, <@mesh, [{"b"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%x: tensor<8x32xf32>, %y: tensor<32x8xf32>) {
    %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x8xf32>) -> tensor<8x8xf32>
    sdy.return %d : tensor<8x8xf32>
  } : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %1 = stablehlo.negate %0 : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @main(%arg0: tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<2x48xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", "b"}]>}) -> (tensor<96xf32>, tensor<96xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<6x16xf32>) -> tensor<96xf32>
  %1 = stablehlo.reshape %arg1 : (tensor<2x48xf32>) -> tensor<96xf32>
  return %0, %1 : tensor<96xf32>, tensor<96xf32>
}
// -----
sdy.mesh @mesh = <["a"=4, "b"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b", ?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=4, "b"=4]>
func.func @main(%arg0: tensor<3x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b":(1)2, ?}]>}) -> tensor<3x6xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<3x6xf32>
  sdy.sharding_group %0 group_id=0 : tensor<3x6xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", ?}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}]>}) {
  %0 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<2x32xf32>) -> (tensor<2x32x2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b":(1)2}, {"b":(2)2}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [] x [] : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32x2x32xf32>
  return %0 : tensor<2x32x2x32xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x8xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @MoveToHost(%arg0) {backend_config = "", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x16xf32>
}
