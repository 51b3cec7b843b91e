// RUN: sdy-dsl opt %s -sdy-drop-sharding-rules -split-input-file -verify-diagnostics

// The verifier runs before the pass, so a malformed rule is reported even
// though the pass would drop it.
func.func @rule_attr_of_wrong_kind(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'stablehlo.negate' op should have a sharding rule attribute of type OpShardingRuleAttr for attr named 'sdy.sharding_rule'}}
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = "elementwise"} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @rule_rank_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'stablehlo.negate' op operand - mapping rank must match: 1 != 2}}
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @rule_operand_count_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'stablehlo.negate' op number of operands and mappings must match: 1 != 2}}
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
