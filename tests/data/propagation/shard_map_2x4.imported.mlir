module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg1: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}], replicated={"data"}>}, %arg2: tensor<256x256xf32>) -> (tensor<64x256xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"data"}, {"model"}]>, <@mesh, [{"model"}, {}], replicated={"data"}>] out_shardings=[<@mesh, [{"data"}, {}], replicated={"model"}>] manual_axes={"data", "model"} (%arg3: tensor<32x64xf32>, %arg4: tensor<64x256xf32>) {
      %4 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{}, {}]> : tensor<32x64xf32>
      %5 = sdy.data_flow_edge %arg4 sharding=<@mesh, [{}, {}]> : tensor<64x256xf32>
      %6 = stablehlo.dot_general %4, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
      %7 = "stablehlo.all_reduce"(%6) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
        %8 = stablehlo.add %arg5, %arg6 : tensor<f32>
        stablehlo.return %8 : tensor<f32>
      }) : (tensor<32x256xf32>) -> tensor<32x256xf32>
      sdy.return %7 : tensor<32x256xf32>
    } : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"data"}, {}], replicated={"model"}> : tensor<64x256xf32>
    %2 = stablehlo.tanh %1 : tensor<64x256xf32>
    %3 = stablehlo.dot_general %2, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    return %3 : tensor<64x256xf32>
  }
}
