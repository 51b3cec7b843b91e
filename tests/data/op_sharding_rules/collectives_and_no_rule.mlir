// Collectives: stablehlo (with rules) and sdy (none); plus ops without a rule (control flow, tokens, sdy ops).
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%a: tensor<8x16xf32>, %k: tensor<2xui64>, %t: tensor<4x4xf32>, %i: tensor<i32>) -> tensor<8x16xf32> {
  %0 = sdy.sharding_constraint %a <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %1 = sdy.reshard %a <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  %2 = sdy.all_gather [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  %3 = sdy.all_slice [{}, {"y"}] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %4 = sdy.all_reduce {"y"} %2 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  %5 = sdy.collective_permute %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %6 = sdy.propagation_barrier %a allowed_direction=NONE : tensor<8x16xf32>
  %7 = stablehlo.iota dim = 0 : tensor<8x16xf32>
  %8:2 = stablehlo.rng_bit_generator %k, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %o = stablehlo.constant dense<1.0> : tensor<f32>
  %10 = stablehlo.constant dense<[8, 16]> : tensor<2xi64>
  %9 = stablehlo.rng %z, %o, %10, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<8x16xf32>
  %11 = stablehlo.cholesky %t, lower = true : tensor<4x4xf32>
  %12 = stablehlo.optimization_barrier %a : tensor<8x16xf32>
  %13:2 = stablehlo.while(%iterArg = %a, %c = %i) : tensor<8x16xf32>, tensor<i32>
    cond {
      %cmp = stablehlo.compare LT, %c, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %cmp : tensor<i1>
    } do {
      stablehlo.return %iterArg, %c : tensor<8x16xf32>, tensor<i32>
    }
  %14 = stablehlo.partition_id : tensor<ui32>
  %15 = stablehlo.replica_id : tensor<ui32>
  %16 = sdy.data_flow_edge %13#0 : tensor<8x16xf32>
  %17 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<8x16xf32>) -> tensor<i32>
  %18 = stablehlo.broadcast %a, sizes = [3] : (tensor<8x16xf32>) -> tensor<3x8x16xf32>
  %19 = stablehlo.tuple %a, %i : tuple<tensor<8x16xf32>, tensor<i32>>
  %20 = stablehlo.get_tuple_element %19[0] : (tuple<tensor<8x16xf32>, tensor<i32>>) -> tensor<8x16xf32>
  %21 = stablehlo.create_token : !stablehlo.token
  %22 = stablehlo.after_all %21 : !stablehlo.token
  %23 = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %24 = "stablehlo.all_gather"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x32xf32>
  %25 = "stablehlo.all_to_all"(%a) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %26 = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %27 = "stablehlo.reduce_scatter"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x8xf32>
  %28 = "stablehlo.collective_broadcast"(%a) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %29 = "stablehlo.cross-replica-sum"(%a) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %30 = sdy.reduce_scatter [{}, {"y"}] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %31 = sdy.all_to_all [{"x"}: 0->1] %2 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  sdy.sharding_group %a group_id=0 : tensor<8x16xf32>
  %32 = stablehlo.fft %t, type = RFFT, length = [4] : (tensor<4x4xf32>) -> tensor<4x3xcomplex<f32>>
  return %a : tensor<8x16xf32>
}

func.func @collectives(%a: tensor<8x16xf32>, %b: tensor<4x6x2xf32>, %c: tensor<1x8xf32>) {
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<16x16xf32>
  %1:2 = "stablehlo.all_gather"(%a, %b) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>, tensor<4x6x2xf32>) -> (tensor<16x16xf32>, tensor<8x6x2xf32>)
  %2 = "stablehlo.all_to_all"(%a) {split_dimension = 1 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = "stablehlo.all_to_all"(%b) {split_dimension = 0 : i64, concat_dimension = 2 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x6x2xf32>) -> tensor<2x6x4xf32>
  %4:2 = "stablehlo.all_to_all"(%b, %b) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x6x2xf32>, tensor<4x6x2xf32>) -> (tensor<8x6x1xf32>, tensor<8x6x1xf32>)
  %5 = "stablehlo.reduce_scatter"(%b) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x6x2xf32>) -> tensor<2x6x2xf32>
  %7 = "stablehlo.all_gather"(%c) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1x8xf32>) -> tensor<2x8xf32>
  %8 = "stablehlo.all_gather"(%c) {all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

func.func @mpmd_ops(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=2, "y"=4]>} {
  %0 = mpmd.broadcast %arg0 : tensor<4x8xf32>
  %1 = mpmd.reduce<add> %0, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}
func.func @mpmd_transfer(%arg0 : !mpmd.mesh_tensor<"mesh1", tensor<12x16xf32>>) -> !mpmd.mesh_tensor<"mesh2", tensor<12x16xf32>> attributes {
    "topology"=#mpmd.topology<<"mesh1": <["x"=2, "y"=4]>>, <"mesh2": <["z"=3]>>>} {
  %0 = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"mesh1", tensor<12x16xf32>>) -> !mpmd.mesh_tensor<"mesh2", tensor<12x16xf32>>
  func.return %0 : !mpmd.mesh_tensor<"mesh2", tensor<12x16xf32>>
}
