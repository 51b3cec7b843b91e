// RUN: sdy-dsl opt %s -mpmd-mark-offloaded-input-output -mpmd-mark-input-output-with-layouts -mpmd-delay-inferred-fragments -mpmd-delay-transfers-from-cpu -mpmd-mark-aliasing-and-donation -mpmd-mark-fragment-reserved-memory -mpmd-lower-to-fragment-calls | filecheck %s

// A multi-mesh MPMD module through all seven MPMD export passes, in the order
// of upstream's mpmd-export-pipeline (the same chain as
// pipelines/mpmd_export.yaml; tests/test_mpmd_pipeline.py runs that file on
// this module against these CHECK lines).
//
// Where the module comes from: no tool at hand lowers a JAX program to the
// MPMD dialect (jaxlib 0.10.2 has the dialect, not the MPMD partitioner), so
// it is written by hand in the shape upstream's MPMD import and optimization
// passes give a two-stage pipeline-parallel training step of a two-layer MLP
// (the structure the upstream lit suites and the MPMD dialect documentation
// use): one public @main with a `topology` of named meshes, one mesh per
// stage plus a host mesh `stage0/cpu` that holds the batch; per-stage
// fragments named by their `origin` (a transpose count of 1 marks backward
// computation); `mpmd.transfer`s between meshes; an inferred fragment (no
// origin) for a constant; shardings over the global `sdy.mesh @mesh`, one
// inside an `sdy.manual_computation`; and the attributes JAX writes on
// @main's arguments and results: donation (`jax.buffer_donor`), aliasing
// (`tf.aliasing_output`), host memory (`mhlo.memory_kind`) and layouts
// (`mhlo.layout_mode`).
//
// Per-device bytes for the reserved memory (every mesh is ["x"=2]): w0 and
// g0 256, w1 and gw 128, the batch 128, h and ga 256, y and yn 64, loss and
// lr 4; m0 lives in host memory and counts nothing.

!w0 = !mpmd.mesh_tensor<"stage0", tensor<8x16xf32>, sharding=<@mesh, [{}, {"x"}]>>
!w1 = !mpmd.mesh_tensor<"stage1", tensor<16x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
!xc = !mpmd.mesh_tensor<"stage0/cpu", tensor<4x8xf32>>
!x0 = !mpmd.mesh_tensor<"stage0", tensor<4x8xf32>>
!h0 = !mpmd.mesh_tensor<"stage0", tensor<4x16xf32>>
!h1 = !mpmd.mesh_tensor<"stage1", tensor<4x16xf32>>
!y1 = !mpmd.mesh_tensor<"stage1", tensor<4x4xf32>>
!l1 = !mpmd.mesh_tensor<"stage1", tensor<f32>>
!s1 = !mpmd.mesh_tensor<"stage1", tensor<f32>>

module @jit_train_step {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(
      %w0: !w0 {jax.buffer_donor = true},
      %w1: !w1 {tf.aliasing_output = 1 : i32},
      %m0: !w0 {mhlo.memory_kind = "pinned_host"},
      %x: !xc,
      %y: !y1 {mhlo.layout_mode = "auto"})
      -> (!w0, !w1, !w0 {mhlo.memory_kind = "pinned_host"}, !l1 {mhlo.layout_mode = "default"})
      attributes {topology = #mpmd.topology<<"stage0": <["x"=2]>>, <"stage1": <["x"=2]>>, <"stage0/cpu": <["x"=2]>>>} {
    // The batch comes from the host CPU mesh.
    %xt = mpmd.transfer %x : (!xc) -> !x0
    // Stage 1 prepares the labels while the batch is still on the host.
    %yn = mpmd.fragment<mesh="stage1", origin=["labels"]> (%y) (%t: tensor<4x4xf32>) {
      %n = stablehlo.negate %t : tensor<4x4xf32>
      mpmd.return %n : tensor<4x4xf32>
    } : (!y1) -> !y1
    // An inferred fragment (no origin): the learning rate on stage1.
    %lr = mpmd.fragment<mesh="stage1", origin=[]> () () {
      %c = stablehlo.constant dense<0.01> : tensor<f32>
      mpmd.return %c : tensor<f32>
    } : () -> !s1
    // Forward of stage 0, with a manual computation over the global mesh.
    %h = mpmd.fragment<mesh="stage0", origin=["layer_0"]> (%xt, %w0) (%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
      %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
      %r = sdy.manual_computation(%d) in_shardings=[<@mesh, [{}, {"x"}]>] out_shardings=[<@mesh, [{}, {"x"}]>] manual_axes={"x"} (%l: tensor<4x8xf32>) {
        %t = stablehlo.tanh %l : tensor<4x8xf32>
        sdy.return %t : tensor<4x8xf32>
      } : (tensor<4x16xf32>) -> tensor<4x16xf32>
      mpmd.return %r : tensor<4x16xf32>
    } : (!x0, !w0) -> !h0
    %ht = mpmd.transfer %h : (!h0) -> !h1
    // Forward and backward of the last stage: loss, weight gradient, activation gradient.
    %f:3 = mpmd.fragment<mesh="stage1", origin=["layer_1", "layer_1"(1)]> (%ht, %w1, %yn) (%a: tensor<4x16xf32>, %b: tensor<16x4xf32>, %t: tensor<4x4xf32>) {
      %o = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
      %e = stablehlo.subtract %o, %t : tensor<4x4xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %sq = stablehlo.multiply %e, %e : tensor<4x4xf32>
      %loss = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
      %gw = stablehlo.dot_general %a, %e, contracting_dims = [0] x [0] : (tensor<4x16xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
      %ga = stablehlo.dot_general %e, %b, contracting_dims = [1] x [1] : (tensor<4x4xf32>, tensor<16x4xf32>) -> tensor<4x16xf32>
      mpmd.return %loss, %gw, %ga : tensor<f32>, tensor<16x4xf32>, tensor<4x16xf32>
    } : (!h1, !w1, !y1) -> (!l1, !w1, !h1)
    %gt = mpmd.transfer %f#2 : (!h1) -> !h0
    // Backward of stage 0.
    %g0 = mpmd.fragment<mesh="stage0", origin=["layer_0"(1)]> (%xt, %gt) (%a: tensor<4x8xf32>, %g: tensor<4x16xf32>) {
      %gw = stablehlo.dot_general %a, %g, contracting_dims = [0] x [0] : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
      mpmd.return %gw : tensor<8x16xf32>
    } : (!x0, !h0) -> !w0
    // Optimizer of stage 0: momentum lives in host memory.
    %u0:2 = mpmd.fragment<mesh="stage0", origin=["update"]> (%w0, %g0, %m0) (%w: tensor<8x16xf32>, %g: tensor<8x16xf32>, %m: tensor<8x16xf32>) {
      %md = stablehlo.custom_call @annotate_device_placement(%m) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %m2 = stablehlo.add %md, %g : tensor<8x16xf32>
      %w2 = stablehlo.subtract %w, %m2 : tensor<8x16xf32>
      %mh = stablehlo.custom_call @annotate_device_placement(%m2) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      mpmd.return %w2, %mh : tensor<8x16xf32>, tensor<8x16xf32>
    } : (!w0, !w0, !w0) -> (!w0, !w0)
    // Optimizer of stage 1: plain SGD with the inferred learning rate.
    %u1 = mpmd.fragment<mesh="stage1", origin=["update"]> (%w1, %f#1, %lr) (%w: tensor<16x4xf32>, %g: tensor<16x4xf32>, %r: tensor<f32>) {
      %rb = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
      %s = stablehlo.multiply %g, %rb : tensor<16x4xf32>
      %w2 = stablehlo.subtract %w, %s : tensor<16x4xf32>
      mpmd.return %w2 : tensor<16x4xf32>
    } : (!w1, !w1, !s1) -> !w1
    return %u0#0, %u1, %u0#1, %f#0 : !w0, !w1, !w0, !l1
  }
}

// The manual computation's mesh got its `sdy.mesh`, at the top.
// CHECK-LABEL: module @jit_train_step {
// CHECK-NEXT:    sdy.mesh @stage0 = <["x"=2]>
// CHECK-NEXT:    sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT:    func.func public @main(
//
// The program order after the delays: the labels fragment first, the batch's
// transfer from the CPU mesh right before its first consumer, the inferred
// fragment right before its first consumer. Every fragment is a call.
// CHECK:         %[[YN:.*]] = mpmd.fragment_call<mesh="stage1", origin=["labels"]> @p0_labels_fwd.train_step(%arg4)
// CHECK-NEXT:    %[[XT:.*]] = mpmd.transfer %arg3
// CHECK-NEXT:    %[[H:.*]] = mpmd.fragment_call<mesh="stage0", origin=["layer_0"]> @p1_layer_0_fwd.train_step(%[[XT]], %arg0)
// CHECK-NEXT:    %[[HT:.*]] = mpmd.transfer %[[H]]
// CHECK-NEXT:    %[[F:.*]]:3 = mpmd.fragment_call<mesh="stage1", origin=["layer_1", "layer_1"(1)]> @p2_layer_1_fwd_bwd.train_step(%[[HT]], %arg1, %[[YN]])
// CHECK-NEXT:    %[[GT:.*]] = mpmd.transfer %[[F]]#2
// CHECK-NEXT:    %[[G0:.*]] = mpmd.fragment_call<mesh="stage0", origin=["layer_0"(1)]> @p3_layer_0_bwd.train_step(%[[XT]], %[[GT]])
// CHECK-NEXT:    %[[U0:.*]]:2 = mpmd.fragment_call<mesh="stage0", origin=["update"]> @p4_update_fwd.train_step(%arg0, %[[G0]], %arg2)
// CHECK-NEXT:    %[[LR:.*]] = mpmd.fragment_call<mesh="stage1", origin=[]> @p5_inferred.train_step()
// CHECK-NEXT:    %[[U1:.*]] = mpmd.fragment_call<mesh="stage1", origin=["update"]> @p6_update_fwd.train_step(%arg1, %[[F]]#1, %[[LR]])
// CHECK-NEXT:    return %[[U0]]#0, %[[U1]], %[[U0]]#1, %[[F]]#0
//
// The AUTO layout of %y stays AUTO: one consumer. 192 bytes live on stage1
// (w1, y) minus its operand y.
// CHECK:       func.func @p0_labels_fwd.train_step(%arg0: tensor<4x4xf32> {mhlo.layout_mode = "auto"}) -> tensor<4x4xf32>
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 128 : i64}
//
// The manual computation now names the fragment's mesh. Live on stage0: w0
// and the batch, both its operands.
// CHECK:       func.func @p1_layer_0_fwd.train_step(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<4x16xf32>
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 0 : i64}
// CHECK:         sdy.manual_computation(%{{.*}}) in_shardings=[<@stage0, [{}, {"x"}]>] out_shardings=[<@stage0, [{}, {"x"}]>] manual_axes={"x"}
//
// The transferred activation is aliased to the activation gradient (same
// type); yn (no output of its type) is donated; w1 (a user argument with no
// mark) is neither. Live on stage1: w1, y, yn, ht (512) minus w1, yn, ht.
// CHECK:       func.func @p2_layer_1_fwd_bwd.train_step(%arg0: tensor<4x16xf32> {tf.aliasing_output = 2 : i32}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<4x4xf32> {jax.buffer_donor = true})
// CHECK-SAME:      -> (tensor<f32>, tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4x16xf32>)
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 64 : i64}
//
// Live on stage0: w0, the batch, gt (640) minus the batch and gt.
// CHECK:       func.func @p3_layer_0_bwd.train_step(%arg0: tensor<4x8xf32> {jax.buffer_donor = true}, %arg1: tensor<4x16xf32> {jax.buffer_donor = true})
// CHECK-SAME:      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 256 : i64}
//
// w0 is donated by the user; the gradient is aliased to the new weights; the
// momentum is in host memory on both sides (offloaded, never aliased).
// Live on stage0: w0, g0, both its operands.
// CHECK:       func.func @p4_update_fwd.train_step(%arg0: tensor<8x16xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>, tf.aliasing_output = 0 : i32}, %arg2: tensor<8x16xf32> {mhlo.memory_kind = "pinned_host", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
// CHECK-SAME:      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<8x16xf32> {mhlo.memory_kind = "pinned_host", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 0 : i64}
//
// Live on stage1: w1, y, loss, gw.
// CHECK:       func.func @p5_inferred.train_step() -> tensor<f32>
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 324 : i64}
//
// w1's `tf.aliasing_output = 1` leads, through @main's result #1, to this
// fragment's result #0; the gradient and lr are donated. Live on stage1: w1,
// y, loss, gw, lr (328) minus w1, gw, lr.
// CHECK:       func.func @p6_update_fwd.train_step(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, tf.aliasing_output = 0 : i32}, %arg1: tensor<16x4xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<f32> {jax.buffer_donor = true})
// CHECK-SAME:      attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 68 : i64}
