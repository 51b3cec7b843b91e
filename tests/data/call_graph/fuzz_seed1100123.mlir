// Fuzzed call graph (tests/fuzz_call_graph.py, seed 1100123), reduced: with
// dedup-functions-fully=true an sdy.constant took "x" on dim 0 instead of the
// reference's dim 1 (the calls of a callee in program order).
sdy.mesh @mesh = <["x"=8]>
func.func @main(%arg0: tensor<8x4xi8>, %arg1: tensor<8x4xi8>) -> (tensor<8x4xi8>, tensor<8x4xi8>) {
  %r46:2 = func.call @f0(%arg0, %arg0) : (tensor<8x4xi8>, tensor<8x4xi8>) -> (tensor<8x4xi8>, tensor<8x4xi8>)
  %c47 = stablehlo.constant dense<3> : tensor<8x4xi8>
  %c49 = stablehlo.constant dense<2> : tensor<8x4xi8>
  return %c49, %c47 : tensor<8x4xi8>, tensor<8x4xi8>
}
func.func private @f0(%arg0: tensor<8x4xi8>, %arg1: tensor<8x4xi8>) -> (tensor<8x4xi8>, tensor<8x4xi8>) {
  %i30 = stablehlo.constant dense<0> : tensor<i32>
  %k31 = "stablehlo.case"(%i30) ({
  %r32:2 = func.call @f2(%arg0, %arg1) : (tensor<8x4xi8>, tensor<8x4xi8>) -> (tensor<8x4xi8>, tensor<8x4xi8>)
  %i34 = stablehlo.constant dense<0> : tensor<i32>
  %k35 = "stablehlo.case"(%i34) ({
  %r37 = func.call @f1(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x4xi8>) -> (tensor<8x4xi8>)
  stablehlo.return %r37 : tensor<8x4xi8>
}) : (tensor<i32>) -> tensor<8x4xi8>
  %r38:2 = func.call @f2(%arg1, %k35) : (tensor<8x4xi8>, tensor<8x4xi8>) -> (tensor<8x4xi8>, tensor<8x4xi8>)
  stablehlo.return %r38#1 : tensor<8x4xi8>
}) : (tensor<i32>) -> tensor<8x4xi8>
  %c39 = stablehlo.constant dense<3> : tensor<8x4xi8>
  %r45:2 = func.call @f2(%k31, %c39) : (tensor<8x4xi8>, tensor<8x4xi8>) -> (tensor<8x4xi8>, tensor<8x4xi8>)
  return %r45#0, %r45#0 : tensor<8x4xi8>, tensor<8x4xi8>
}
func.func private @f1(%arg0: tensor<8x4xi8>) -> (tensor<8x4xi8> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %n23 = sdy.named_computation<"bar">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] (%na24: tensor<8x4xi8>) {
    %c26 = stablehlo.constant dense<3> : tensor<8x4xi8>
    sdy.return %c26 : tensor<8x4xi8>
  } : (tensor<8x4xi8>) -> tensor<8x4xi8>
  %v27 = stablehlo.add %arg0, %n23 : tensor<8x4xi8>
  return %v27 : tensor<8x4xi8>
}
func.func private @f2(%arg0: tensor<8x4xi8>, %arg1: tensor<8x4xi8> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x4xi8>, tensor<8x4xi8> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %n1 = sdy.named_computation<"bar">(%arg1) (%na2: tensor<8x4xi8>) {
    %v3 = stablehlo.add %na2, %na2 : tensor<8x4xi8>
    %v4 = stablehlo.multiply %v3, %na2 : tensor<8x4xi8>
    %i5 = stablehlo.constant dense<0> : tensor<i32>
    %k6 = "stablehlo.case"(%i5) ({
  %v10 = stablehlo.add %v4, %v4 : tensor<8x4xi8>
  stablehlo.return %v10 : tensor<8x4xi8>
}) : (tensor<i32>) -> tensor<8x4xi8>
    sdy.return %k6 : tensor<8x4xi8>
  } : (tensor<8x4xi8>) -> tensor<8x4xi8>
  %v11 = stablehlo.add %arg0, %arg0 : tensor<8x4xi8>
  %w13 = stablehlo.while(%it14 = %n1) : tensor<8x4xi8>
  cond {
    %c15 = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c15 : tensor<i1>
  } do {
    %w16 = stablehlo.while(%it17 = %it14) : tensor<8x4xi8> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
    cond {
      %c18 = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c18 : tensor<i1>
    } do {
      %v19 = stablehlo.multiply %it17, %it17 : tensor<8x4xi8>
      %v22 = stablehlo.add %it17, %v19 : tensor<8x4xi8>
      stablehlo.return %v22 : tensor<8x4xi8>
    }
    stablehlo.return %w16 : tensor<8x4xi8>
  }
  return %w13, %v11 : tensor<8x4xi8>, tensor<8x4xi8>
}
