// gather and scatter: offset (sliced/unsliced/size-1) dims, collapsed dims, implicit and
// explicit batch dims, index_vector_dim inside or past the indices' rank.
func.func @gathers(%x: tensor<8x16xf32>, %i1: tensor<10x1xi32>, %i2: tensor<10x2xi32>, %iv: tensor<10xi32>,
                   %b: tensor<4x8x16xf32>, %bi: tensor<4x5x1xi32>, %ii: tensor<3x4x2xi32>, %t: tensor<2x3x4x2xi32>) {
  %0 = "stablehlo.gather"(%x, %i1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<10x1xi32>) -> tensor<10x16xf32>
  %1 = "stablehlo.gather"(%x, %i1) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 1>}> : (tensor<8x16xf32>, tensor<10x1xi32>) -> tensor<8x10xf32>
  %2 = "stablehlo.gather"(%x, %i2) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<10x2xi32>) -> tensor<10xf32>
  %3 = "stablehlo.gather"(%x, %iv) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<10xi32>) -> tensor<10x16xf32>
  %4 = "stablehlo.gather"(%x, %i1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 16>}> : (tensor<8x16xf32>, tensor<10x1xi32>) -> tensor<10x2x16xf32>
  %5 = "stablehlo.gather"(%x, %i1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x16xf32>, tensor<10x1xi32>) -> tensor<10x1x4xf32>
  %6 = "stablehlo.gather"(%b, %bi) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x5x1xi32>) -> tensor<4x5x16xf32>
  %7 = "stablehlo.gather"(%x, %ii) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 5>}> : (tensor<8x16xf32>, tensor<3x4x2xi32>) -> tensor<3x4x5xf32>
  %8 = "stablehlo.gather"(%x, %t) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<2x3x4x2xi32>) -> tensor<2x16x3x4xf32>
  %9 = "stablehlo.gather"(%x, %ii) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 8, 16>}> : (tensor<8x16xf32>, tensor<3x4x2xi32>) -> tensor<8x16x3x4xf32>
  return
}

func.func @scatters(%x: tensor<8x16xf32>, %i1: tensor<10x1xi32>, %u: tensor<10x16xf32>, %uc: tensor<8x10xf32>, %i2: tensor<10x2xi32>, %up: tensor<10xf32>,
                    %b: tensor<4x8x16xf32>, %bi: tensor<4x5x1xi32>, %bu: tensor<4x5x16xf32>, %uw: tensor<10x2x4xf32>) {
  %0 = "stablehlo.scatter"(%x, %i1, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  %1 = "stablehlo.scatter"(%x, %i1, %uc) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      stablehlo.return %q : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<8x10xf32>) -> tensor<8x16xf32>
  %2 = "stablehlo.scatter"(%x, %i2, %up) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = stablehlo.maximum %q, %p : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x2xi32>, tensor<10xf32>) -> tensor<8x16xf32>
  %3 = "stablehlo.scatter"(%b, %bi, %bu) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<4x8x16xf32>, tensor<4x5x1xi32>, tensor<4x5x16xf32>) -> tensor<4x8x16xf32>
  %4 = "stablehlo.scatter"(%x, %i1, %uw) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x2x4xf32>) -> tensor<8x16xf32>
  %5:2 = "stablehlo.scatter"(%x, %x, %i1, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<f32>, %p2: tensor<f32>, %q: tensor<f32>, %q2: tensor<f32>):
      %r = stablehlo.add %p, %q : tensor<f32>
      %r2 = stablehlo.multiply %q2, %p2 : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return
}
func.func @scatter_update_computations(%a: tensor<8x16xf32>, %i: tensor<10x1xi32>, %u: tensor<10x16xf32>, %b: tensor<8x16xi1>, %ub: tensor<10x16xi1>) {
  // set
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      stablehlo.return %y : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // keep
  %1 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      stablehlo.return %x : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // add
  %2 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // add_rev
  %3 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.add %y, %x : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // mul
  %4 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.multiply %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // max
  %5 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.maximum %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // min
  %6 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.minimum %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // sub
  %7 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.subtract %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // div
  %8 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.divide %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // add2
  %9 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      %q = stablehlo.add %r, %y : tensor<f32>
      stablehlo.return %q : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // addneg
  %10 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %n = stablehlo.negate %y : tensor<f32>
      %r = stablehlo.add %x, %n : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // const
  %11 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = stablehlo.constant dense<1.0> : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  // addxx
  %12 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.add %x, %x : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  %b0 = "stablehlo.scatter"(%b, %i, %ub) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<i1>, %y: tensor<i1>):
      %r = stablehlo.and %x, %y : tensor<i1>
      stablehlo.return %r : tensor<i1>
    }) : (tensor<8x16xi1>, tensor<10x1xi32>, tensor<10x16xi1>) -> tensor<8x16xi1>
  %b1 = "stablehlo.scatter"(%b, %i, %ub) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<i1>, %y: tensor<i1>):
      %r = stablehlo.or %x, %y : tensor<i1>
      stablehlo.return %r : tensor<i1>
    }) : (tensor<8x16xi1>, tensor<10x1xi32>, tensor<10x16xi1>) -> tensor<8x16xi1>
  %b2 = "stablehlo.scatter"(%b, %i, %ub) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<i1>, %y: tensor<i1>):
      %r = stablehlo.xor %x, %y : tensor<i1>
      stablehlo.return %r : tensor<i1>
    }) : (tensor<8x16xi1>, tensor<10x1xi32>, tensor<10x16xi1>) -> tensor<8x16xi1>
  %m:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      %r2 = stablehlo.add %x2, %y2 : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %m2:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %r, %y2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return
}
func.func @scatter_multi_input_update_computations(%a: tensor<8x16xf32>, %i: tensor<10x1xi32>, %u: tensor<10x16xf32>, %w: tensor<10x1xf32>) {
  %m479:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      %r2 = stablehlo.multiply %x2, %y2 : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %m136:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      %r2 = stablehlo.add %y2, %x2 : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %m586:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.add %y, %x : tensor<f32>
      %r2 = stablehlo.add %x2, %y2 : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %m457:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.maximum %x, %y : tensor<f32>
      %r2 = stablehlo.maximum %x2, %y2 : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %m135:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %x2: tensor<f32>, %y: tensor<f32>, %y2: tensor<f32>):
      %r = stablehlo.add %x, %y2 : tensor<f32>
      %r2 = stablehlo.add %x2, %y : tensor<f32>
      stablehlo.return %r, %r2 : tensor<f32>, tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>, tensor<10x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %s1 = "stablehlo.scatter"(%a, %i, %w) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x1xf32>) -> tensor<8x16xf32>
  return
}
