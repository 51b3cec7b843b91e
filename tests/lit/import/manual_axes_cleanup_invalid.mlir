// RUN: sdy-dsl opt %s -sdy-manual-axes-cleanup -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

// No in/out shardings to record the manual axes in, but a non-empty body.
func.func @no_inputs_no_outputs_non_empty_body() {
  // expected-error @+1 {{op has manual_axes when there are no in/out shardings and the body is not empty. This isn't allowed at this stage, please contact the Shardy team or file a bug.}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = stablehlo.constant dense<1.0> : tensor<8xf32>
    sdy.return
  } : () -> ()
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>

// Every offending manual computation is reported, not only the first.
func.func @two_offenders() {
  // expected-error @+1 {{op has manual_axes when there are no in/out shardings}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = stablehlo.constant dense<1.0> : tensor<8xf32>
    sdy.return
  } : () -> ()
  // expected-error @+1 {{op has manual_axes when there are no in/out shardings}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = stablehlo.constant dense<2.0> : tensor<8xf32>
    sdy.return
  } : () -> ()
  return
}
