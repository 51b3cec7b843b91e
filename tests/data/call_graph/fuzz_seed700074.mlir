// Fuzzed call graph (tests/fuzz_call_graph.py, seed 700074), reduced: with
// dedup-functions-fully=true @main %arg0 took [{"a","b",?},{?}] instead of the
// reference's [{"a",?},{"b",?}] (the calls of a callee in program order).
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<4x8xi1>) -> (tensor<4x8xi1>) {
  %r60:2 = func.call @f1(%arg0) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
  %r61 = func.call @f0(%r60#1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x8xi1>) -> (tensor<4x8xi1>)
  %r62 = func.call @f0(%r61) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<4x8xi1>) -> (tensor<4x8xi1>)
  %r63:2 = func.call @f3(%r61) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{"a", "b"}, {}]>]>} : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
  return %r60#1 : tensor<4x8xi1>
}
func.func private @f0(%arg0: tensor<4x8xi1> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<4x8xi1> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %v37 = stablehlo.add %arg0, %arg0 : tensor<4x8xi1>
  %r38:2 = func.call @f3(%v37) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
  %i39 = stablehlo.constant dense<1> : tensor<i32>
  %k40 = "stablehlo.case"(%i39) ({
  %r41:2 = func.call @f1(%v37) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
  %r42:2 = func.call @f3(%r41#1) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
  stablehlo.return %r42#1 : tensor<4x8xi1>
}, {
  %w48 = stablehlo.while(%it49 = %v37) : tensor<4x8xi1>
  cond {
    %c50 = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c50 : tensor<i1>
  } do {
    %c54 = stablehlo.constant dense<true> : tensor<4x8xi1>
    stablehlo.return %c54 : tensor<4x8xi1>
  }
  stablehlo.return %w48 : tensor<4x8xi1>
}) : (tensor<i32>) -> tensor<4x8xi1>
  %n55 = sdy.named_computation<"bar">(%r38#0) (%na56: tensor<4x8xi1>) {
    %r59:2 = func.call @f1(%na56) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
    sdy.return %r59#1 : tensor<4x8xi1>
  } : (tensor<4x8xi1>) -> tensor<4x8xi1>
  return %r38#0 : tensor<4x8xi1>
}
func.func private @f1(%arg0: tensor<4x8xi1> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<4x8xi1>, tensor<4x8xi1>) {
  %n19 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] (%na20: tensor<4x8xi1>) {
    %r21:2 = func.call @f3(%na20) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
    %n22 = sdy.named_computation<"foo">(%r21#1) (%na23: tensor<4x8xi1>) {
      %r24:2 = func.call @f3(%na23) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
      %v26 = stablehlo.multiply %r24#1, %r24#0 : tensor<4x8xi1>
      %v27 = stablehlo.multiply %r24#1, %v26 : tensor<4x8xi1>
      sdy.return %v27 : tensor<4x8xi1>
    } : (tensor<4x8xi1>) -> tensor<4x8xi1>
    %n33 = sdy.named_computation<"foo">(%na20) (%na34: tensor<4x8xi1>) {
      %r35 = func.call @f2(%na34, %na34) : (tensor<4x8xi1>, tensor<4x8xi1>) -> (tensor<4x8xi1>)
      %v36 = stablehlo.multiply %na34, %r35 : tensor<4x8xi1>
      sdy.return %v36 : tensor<4x8xi1>
    } : (tensor<4x8xi1>) -> tensor<4x8xi1>
    sdy.return %n33 : tensor<4x8xi1>
  } : (tensor<4x8xi1>) -> tensor<4x8xi1>
  return %n19, %n19 : tensor<4x8xi1>, tensor<4x8xi1>
}
func.func private @f2(%arg0: tensor<4x8xi1> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<4x8xi1>) -> (tensor<4x8xi1> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %r8:2 = func.call @f3(%arg1) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
  %w10 = stablehlo.while(%it11 = %arg1) : tensor<4x8xi1>
  cond {
    %c12 = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c12 : tensor<i1>
  } do {
    %v13 = sdy.sharding_constraint %it11 <@mesh, [{}, {}]> : tensor<4x8xi1>
    stablehlo.return %v13 : tensor<4x8xi1>
  }
  %n14 = sdy.named_computation<"foo">(%r8#1) (%na15: tensor<4x8xi1>) {
    %r16:2 = func.call @f3(%na15) : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
    %r17:2 = func.call @f3(%r16#1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>)
    %v18 = stablehlo.add %r17#0, %r16#1 : tensor<4x8xi1>
    sdy.return %v18 : tensor<4x8xi1>
  } : (tensor<4x8xi1>) -> tensor<4x8xi1>
  return %w10 : tensor<4x8xi1>
}
func.func private @f3(%arg0: tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xi1>) {
  %v1 = stablehlo.add %arg0, %arg0 : tensor<4x8xi1>
  %n2 = sdy.named_computation<"foo">(%v1) (%na3: tensor<4x8xi1>) {
    %v4 = stablehlo.add %na3, %na3 : tensor<4x8xi1>
    %v5 = sdy.sharding_constraint %v4 <@mesh, [{}, {}]> : tensor<4x8xi1>
    %v6 = stablehlo.add %v4, %na3 : tensor<4x8xi1>
    %v7 = stablehlo.multiply %v5, %v6 : tensor<4x8xi1>
    sdy.return %v7 : tensor<4x8xi1>
  } : (tensor<4x8xi1>) -> tensor<4x8xi1>
  return %v1, %n2 : tensor<4x8xi1>, tensor<4x8xi1>
}
