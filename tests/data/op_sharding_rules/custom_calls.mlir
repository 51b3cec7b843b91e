// custom_call by target name (JAX's Sharding/SPMD* and callbacks have no rule), and a rule already on the op.
func.func @g(%a: tensor<8x16xf32>) -> tensor<8x16xf32> { return %a : tensor<8x16xf32> }
func.func @targets(%a: tensor<8x16xf32>, %p: tensor<i1>, %sc: tensor<16xf32>, %i: tensor<i32>) {
  %0:2 = chlo.top_k(%a, k = 4) : tensor<8x16xf32> -> (tensor<8x4xf32>, tensor<8x4xi32>)
  %1 = "stablehlo.map"(%a, %a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = "stablehlo.batch_norm_inference"(%a, %sc, %sc, %sc, %sc) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %3 = "stablehlo.if"(%p) ({
      stablehlo.return %a : tensor<8x16xf32>
    }, {
      stablehlo.return %a : tensor<8x16xf32>
    }) : (tensor<i1>) -> tensor<8x16xf32>
  %4 = "stablehlo.case"(%i) ({
      stablehlo.return %a : tensor<8x16xf32>
    }, {
      stablehlo.return %a : tensor<8x16xf32>
    }) : (tensor<i32>) -> tensor<8x16xf32>
  %5 = func.call @g(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %6 = sdy.named_computation<"foo">(%a) (%arg1: tensor<8x16xf32>) {
    sdy.return %arg1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %7 = stablehlo.composite "my.op" %a {decomposition = @g} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %8 = "stablehlo.einsum"(%a, %a) {einsum_config = "ab,ab->ab"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %9 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{replicated}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %10 = stablehlo.custom_call @SPMDFullToShardShape(%a) {mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<4x16xf32>
  %11 = stablehlo.custom_call @SPMDShardToFullShape(%10) {mhlo.sharding = "{replicated}"} : (tensor<4x16xf32>) -> tensor<8x16xf32>
  %12 = stablehlo.custom_call @annotate_device_placement(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %13 = stablehlo.custom_call @MoveToHost(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %14 = stablehlo.custom_call @mhlo.erf(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %15 = stablehlo.custom_call @LayoutConstraint(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %16 = stablehlo.custom_call @X64SplitHigh(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %17:2 = stablehlo.custom_call @mhlo.topk(%a) : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
  %18 = stablehlo.custom_call @InspectSharding(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %19 = stablehlo.custom_call @xla_python_cpu_callback(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %20 = stablehlo.custom_call @tpu_custom_call(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %21 = stablehlo.custom_call @Cholesky(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %22 = stablehlo.custom_call @CompactWyHelper(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %23 = stablehlo.custom_call @xla.megascale.provide_metadata(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %24 = stablehlo.custom_call @X64SplitLow(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %25 = stablehlo.custom_call @InvertDiagBlocksLowerTriangular(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %26 = stablehlo.custom_call @MoveToDevice(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %27 = stablehlo.custom_call @unknown_target(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %28 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %29 = stablehlo.custom_call @sdy_testonly(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %30 = stablehlo.custom_call @local_xla.sdy.FuncResultSharding(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %31 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %32 = stablehlo.custom_call @InvertDiagBlocksUpperTriangular(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %33:2 = stablehlo.custom_call @QrDecompositionBlock(%a) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8xf32>)
  %34:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8xf32>)
  %35:2 = stablehlo.custom_call @Eigh(%a) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  return
}

func.func @linalg(%a: tensor<8x4x4xf32>, %q: tensor<8x5x3xf32>, %h: tensor<8x12x16xf32>, %t: tensor<8x5xf32>, %s: tensor<3x3xf32>, %u: tensor<2x1x6x4xf32>, %tu: tensor<2x1x4xf32>) {
  %0:2 = stablehlo.custom_call @Eigh(%a) {backend_config = "1,1,100,1e-6"} : (tensor<8x4x4xf32>) -> (tensor<8x4x4xf32>, tensor<8x4xf32>)
  %1:2 = stablehlo.custom_call @Qr(%q) : (tensor<8x5x3xf32>) -> (tensor<8x5x3xf32>, tensor<8x3xf32>)
  %2 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%h, %t) : (tensor<8x12x16xf32>, tensor<8x5xf32>) -> tensor<8x12x16xf32>
  %3:2 = stablehlo.custom_call @Eigh(%s) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>)
  %4:2 = stablehlo.custom_call @QrDecompositionBlock(%u) : (tensor<2x1x6x4xf32>) -> (tensor<2x1x6x4xf32>, tensor<2x1x4xf32>)
  %5 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%u, %tu) : (tensor<2x1x6x4xf32>, tensor<2x1x4xf32>) -> tensor<2x1x6x4xf32>
  %6 = stablehlo.custom_call @Cholesky(%a) : (tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  return
}

func.func @top_k(%a: tensor<16x4xf32>, %b: tensor<16x4xf32>, %s: tensor<f32>, %si: tensor<i32>, %c: tensor<2x8x32xf32>, %ci: tensor<2x8x32xi32>) {
  %0:2 = stablehlo.custom_call @ApproxTopK(%a, %b, %s, %si) {mhlo.backend_config = {aggregate_to_topk = true, recall_target = 0.9 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 1 : i64}} : (tensor<16x4xf32>, tensor<16x4xf32>, tensor<f32>, tensor<i32>) -> (tensor<16x1xf32>, tensor<16x1xf32>)
  %1:2 = stablehlo.custom_call @PartialReduce(%a, %b, %s, %si) {backend_config = "{\22log2_reduction\22: 5, \22reduction_dim\22: 1, \22to_apply_type\22: \22comparator\22, \22top_k\22: 64, \22recall_target\22: 0.950000}"} : (tensor<16x4xf32>, tensor<16x4xf32>, tensor<f32>, tensor<i32>) -> (tensor<16x1xf32>, tensor<16x1xf32>)
  %2:2 = stablehlo.custom_call @ApproxTopK(%c, %ci, %s, %si) {mhlo.backend_config = {reduction_dim = 2 : i64, top_k = 4 : i64}} : (tensor<2x8x32xf32>, tensor<2x8x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x8x4xf32>, tensor<2x8x4xi32>)
  %3:2 = stablehlo.custom_call @mhlo.topk(%c) {mhlo.attributes = {k = 4 : i64, largest = true}} : (tensor<2x8x32xf32>) -> (tensor<2x8x4xf32>, tensor<2x8x4xi32>)
  %4:2 = stablehlo.custom_call @mhlo.topk(%a) {mhlo.attributes = {k = 4 : i64, largest = true}} : (tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<16x4xi32>)
  %5:2 = chlo.top_k(%c, k = 4) : tensor<2x8x32xf32> -> (tensor<2x8x4xf32>, tensor<2x8x4xi32>)
  return
}

func.func @x64(%lo: tensor<2xui32>, %hi: tensor<2xui32>, %l8: tensor<8x2xui32>) -> tensor<8x2xui64> {
  %0 = stablehlo.custom_call @X64Combine(%lo, %hi) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>
  %1:2 = stablehlo.rng_bit_generator %0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %2 = stablehlo.custom_call @X64Combine(%l8, %l8) : (tensor<8x2xui32>, tensor<8x2xui32>) -> tensor<8x2xui64>
  %3 = stablehlo.custom_call @X64SplitLow(%2) : (tensor<8x2xui64>) -> tensor<8x2xui32>
  return %2 : tensor<8x2xui64>
}

func.func @existing_rules(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.add %a, %a {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k, l])->([m, n]) {i=4, j=2, k=4, l=2, m=4, n=2}>} : tensor<4x2xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([i, j]) {i=2, j=4} need_replication={i} blocked_propagation={j}>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
