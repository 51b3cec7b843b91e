// fft, cholesky, triangular_solve, rng and rng_bit_generator.
func.func @ffts(%c: tensor<4x8x16xcomplex<f32>>, %r: tensor<4x8x16xf32>, %h: tensor<4x8x9xcomplex<f32>>, %v: tensor<16xf32>) {
  %0 = stablehlo.fft %c, type = FFT, length = [16] : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
  %1 = stablehlo.fft %c, type = IFFT, length = [8, 16] : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
  %2 = stablehlo.fft %r, type = RFFT, length = [16] : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>
  %3 = stablehlo.fft %h, type = IRFFT, length = [16] : (tensor<4x8x9xcomplex<f32>>) -> tensor<4x8x16xf32>
  %4 = stablehlo.fft %r, type = RFFT, length = [4, 8, 16] : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>
  %5 = stablehlo.fft %v, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  return
}

func.func @choleskys(%a: tensor<4x4xf32>, %b: tensor<2x3x4x4xf32>, %o: tensor<1x1xf32>) {
  %0 = stablehlo.cholesky %a, lower = true : tensor<4x4xf32>
  %1 = stablehlo.cholesky %b, lower = false : tensor<2x3x4x4xf32>
  %2 = stablehlo.cholesky %o : tensor<1x1xf32>
  return
}

func.func @triangular_solves(%a: tensor<4x4xf32>, %b: tensor<4x6xf32>, %br: tensor<6x4xf32>, %ba: tensor<2x4x4xf32>, %bb: tensor<2x4x6xf32>) {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %1 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %2 = "stablehlo.triangular_solve"(%a, %br) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
  %3 = "stablehlo.triangular_solve"(%a, %br) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<4x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
  %4 = "stablehlo.triangular_solve"(%ba, %bb) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x4x4xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return
}

func.func @rngs(%k: tensor<2xui64>, %k3: tensor<3xui32>, %lo: tensor<f32>, %hi: tensor<f32>) {
  %0:2 = stablehlo.rng_bit_generator %k, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  %1:2 = stablehlo.rng_bit_generator %k3, algorithm = THREE_FRY : (tensor<3xui32>) -> (tensor<3xui32>, tensor<4xui64>)
  %shape = stablehlo.constant dense<[8, 16]> : tensor<2xi64>
  %2 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<8x16xf32>
  %3 = stablehlo.iota dim = 1 : tensor<8x16xi32>
  return
}
