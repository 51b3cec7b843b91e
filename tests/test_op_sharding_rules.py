"""The op sharding rule registry against the C++ reference.

For every op of every input in tests/data/op_sharding_rules (and the shared
corpus of real JAX modules, when present), the rule we compute must print
exactly like the `sdy.sharding_rule` the reference's
sdy-populate-op-sharding-rules pass attaches, and ops it leaves alone must get
no rule. Both modes (conservative or not) are checked.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from jaxlib.mlir import ir, passmanager

from sdy_dsl.errors import RuleFileError
from sdy_dsl.mlir_context import make_context
from sdy_dsl.runtime.op_sharding_rule import (
    NEED_REPLICATION, NULL_DIM, PERMUTATION, REDUCTION, SHARDING_RULE_ATTR, OpShardingRule,
    RuleBuilder)
from sdy_dsl.interp.op_rules_loader import default_rule_file, load_registry, registry_of_files
from sdy_dsl.runtime.op_sharding_rule_registry import populate_op_sharding_rules, sharding_rule_for

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "op_sharding_rules"
CORPUS = REPO / "examples"  # real JAX-lowered modules
INPUTS = sorted(DATA.glob("*.mlir")) + sorted(CORPUS.glob("*.mlir"))


def reference_pipeline(conservative: bool) -> str:
    flag = "true" if conservative else "false"
    return ("builtin.module(func.func(sdy-populate-op-sharding-rules"
            f"{{conservative-propagation={flag}}}))")


def all_ops(module: ir.Module) -> list[ir.Operation]:
    ops = []

    def visit(op):
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return ops


def rule_text(op: ir.Operation) -> str | None:
    attrs = op.attributes
    return str(attrs[SHARDING_RULE_ATTR]) if SHARDING_RULE_ATTR in attrs else None


def input_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.fixture(scope="module")
def registry():
    return load_registry(default_rule_file())


@pytest.mark.parametrize("conservative", [False, True], ids=["default", "conservative"])
@pytest.mark.parametrize("path", INPUTS, ids=input_id)
def test_rules_match_reference_op_by_op(path, conservative, registry):
    text = path.read_text()
    with make_context() as ctx:
        ctx.attach_diagnostic_handler(lambda d: True)  # the reference warns about unknown ops
        expected_module = ir.Module.parse(text)
        passmanager.PassManager.parse(reference_pipeline(conservative)).run(
            expected_module.operation)
        module = ir.Module.parse(text)
        mismatches, with_rule = [], 0
        for expected_op, op in zip(all_ops(expected_module), all_ops(module)):
            expected = rule_text(expected_op)
            rule = sharding_rule_for(op, conservative, registry)
            got = str(rule.to_attr()) if rule is not None else None
            if expected is not None:
                with_rule += 1
                # Our own printer agrees with MLIR's.
                assert str(rule) == expected
            if got != expected:
                mismatches.append(f"{op.location} {op.name}\n  reference: {expected}\n"
                                  f"  ours:      {got}")
        assert not mismatches, "\n".join(mismatches[:20])
        assert with_rule > 0


@pytest.mark.parametrize("path", INPUTS, ids=input_id)
def test_populate_matches_reference_module(path, registry):
    text = path.read_text()
    for conservative in (False, True):
        with make_context() as ctx:
            ctx.attach_diagnostic_handler(lambda d: True)
            expected = ir.Module.parse(text)
            passmanager.PassManager.parse(reference_pipeline(conservative)).run(
                expected.operation)
            module = ir.Module.parse(text)
            populate_op_sharding_rules(module.operation, conservative, registry)
            assert str(module) == str(expected)


# ---------------------------------------------------------------- data model


def test_rule_round_trips_through_attribute():
    text = ("#sdy.op_sharding_rule<([i, jk], [l])->([ij], [m]) {i=2, j=4, k=3, l=5, m=1} "
            "reduction={k} need_replication={l} permutation={m} blocked_propagation={j, l}, "
            "custom>")
    with make_context():
        attr = ir.Attribute.parse(text)
        rule = OpShardingRule.from_attr(attr)
        assert rule.factor_sizes == (2, 4, 3, 5, 1)
        assert rule.operand_mappings == (((0,), (1, 2)), ((3,),))
        assert rule.result_mappings == (((0, 1),), ((4,),))
        assert (rule.reduction_factors, rule.need_replication_factors,
                rule.permutation_factors, rule.blocked_propagation_factors) == (
            (2,), (3,), (4,), (1, 3))
        assert rule.is_custom
        assert rule.to_attr() == attr
        assert str(rule) == str(attr) == text
        assert rule.kind_of(2) == REDUCTION and rule.is_blocked(3)


def test_builder_fills_unmapped_dims_and_builds_compound_factors():
    builder = RuleBuilder([(8, 1, 4), ()], [(32,)])
    builder.add_factor([0, NULL_DIM], 0, 8)              # input dim 0 -> major part of output
    builder.add_factor([2, NULL_DIM], 0, 4, PERMUTATION, blocked=True)
    rule = builder.build()
    assert rule.factor_sizes == (8, 4, 1)                # the size-1 dim got its own factor
    assert rule.operand_mappings == (((0,), (2,), (1,)), ())
    assert rule.result_mappings == (((0, 1),),)
    assert rule.permutation_factors == (1,) and rule.blocked_propagation_factors == (1,)
    assert str(rule) == ("#sdy.op_sharding_rule<([i, k, j], [])->([ij]) {i=8, j=4, k=1} "
                         "permutation={j} blocked_propagation={j}>")


def test_builder_pointwise_skips_scalars():
    rule = (RuleBuilder([(), (4, 8), ()], [(4, 8)])
            .add_pointwise((4, 8), lambda d: NEED_REPLICATION if d == 1 else "pass_through")
            .build())
    assert str(rule) == ("#sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8} "
                         "need_replication={j}>")


def test_factor_names_past_z():
    rule = RuleBuilder.pointwise([tuple(range(1, 21))], [tuple(range(1, 21))])
    with make_context():
        assert str(rule) == str(rule.to_attr())
    assert "z_2=20" in str(rule)


# ---------------------------------------------------------------- declarations


def write(tmp_path: Path, text: str, name: str = "rules.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def first_op(module: ir.Module, name: str) -> ir.Operation:
    return next(op for op in all_ops(module) if op.name == name)


def test_custom_call_declared_in_yaml_alone(tmp_path):
    path = write(tmp_path, """\
        stablehlo.custom_call:
          by: call_target_name
          cases:
            my_batched_matmul:
              rule: "([..., i, k], [..., k, j]) -> ([..., i, j])"
              reduction: [k]
              custom: true
            my_transpose: {rule: "([i, j]) -> ([j, i])", factors: [j, i]}
    """)
    registry = registry_of_files(path)
    with make_context():
        module = ir.Module.parse("""
          func.func @f(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>, %c: tensor<3x5xf32>) {
            %0 = stablehlo.custom_call @my_batched_matmul(%a, %b)
              : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
            %1 = stablehlo.custom_call @my_transpose(%c) : (tensor<3x5xf32>) -> tensor<5x3xf32>
            %2 = stablehlo.custom_call @other(%c) : (tensor<3x5xf32>) -> tensor<3x5xf32>
            return
          }""")
        ops = [op for op in all_ops(module) if op.name == "stablehlo.custom_call"]
        rules = [registry.rule_for(op) for op in ops]
        assert str(rules[0].to_attr()) == (
            "#sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) "
            "{i=4, j=8, k=32, l=16} reduction={l}, custom>")
        assert str(rules[1].to_attr()) == "#sdy.op_sharding_rule<([j, i])->([i, j]) {i=5, j=3}>"
        assert rules[2] is None
        registry.populate(module.operation)
        assert rule_text(ops[0]) == str(rules[0])
        assert rule_text(ops[2]) is None


def test_rule_that_does_not_fit_the_op_points_at_the_declaration(tmp_path):
    path = write(tmp_path, 'stablehlo.negate: "([i, j]) -> ([i, j])"\n')
    registry = registry_of_files(path)
    with make_context():
        module = ir.Module.parse("""
          func.func @f(%a: tensor<4xf32>) {
            %0 = stablehlo.negate %a : tensor<4xf32>
            return
          }""")
        with pytest.raises(RuleFileError) as error:
            registry.rule_for(first_op(module, "stablehlo.negate"))
    assert str(error.value).startswith(f"{path}:1:20: error: rule does not fit op "
                                       "'stablehlo.negate'")
    assert "operand 0 has rank 1, the rule gives it 2 dimension(s)" in str(error.value)


def test_rule_with_inconsistent_factor_sizes(tmp_path):
    path = write(tmp_path, 'stablehlo.add: "([i, j], [j, i]) -> ([i, j])"\n')
    registry = registry_of_files(path)
    with make_context():
        module = ir.Module.parse("""
          func.func @f(%a: tensor<4x8xf32>) {
            %0 = stablehlo.add %a, %a : tensor<4x8xf32>
            return
          }""")
        with pytest.raises(RuleFileError,
                           match="factor 'i' has size 4 in operand 0 but 8 in operand 1"):
            registry.rule_for(first_op(module, "stablehlo.add"))


def test_hook_built_with_rule_builder(tmp_path):
    write(tmp_path, """\
        from jaxlib.mlir import ir
        from sdy_dsl.hooks import hook
        from sdy_dsl.runtime.op_sharding_rule import NULL_DIM, REDUCTION, OpShardingRule, RuleBuilder

        @hook
        def reduce_last(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
            builder = RuleBuilder.for_op(op)
            *batch, last = builder.operand_shapes[0]
            builder.add_pointwise(batch)
            builder.add_factor(len(batch), NULL_DIM, last, REDUCTION)
            return builder.build()
    """, "rules.py")
    path = write(tmp_path, """\
        stablehlo.custom_call:
          by: call_target_name
          cases: {my_sum_last: {builder: reduce_last}}
    """)
    registry = registry_of_files(path)
    with make_context():
        module = ir.Module.parse("""
          func.func @f(%a: tensor<4x8x16xf32>) {
            %0 = stablehlo.custom_call @my_sum_last(%a) : (tensor<4x8x16xf32>) -> tensor<4x8xf32>
            return
          }""")
        rule = registry.rule_for(first_op(module, "stablehlo.custom_call"))
        assert str(rule.to_attr()) == ("#sdy.op_sharding_rule<([i, j, k])->([i, j]) "
                                       "{i=4, j=8, k=16} reduction={k}>")


HOOKS = (REPO / "rules" / "propagation" / "op_sharding_rules.py").as_posix()


@pytest.mark.parametrize("text, where, message", [
    ("stablehlo.add: elementwize\n", "1:16",
     "unknown declaration 'elementwize'; expected 'elementwise', 'none', 'delete', an einsum-like rule "
     "\"(...) -> (...)\" or a mapping"),
    ('mydialect.x:\n  rule: "([i, k], [k, j]) -> ([i, j)"\n', "2:36",
     "expected ']' in rule, found ')'"),
    ('mydialect.x:\n  rule: "([i, k], [k, j]) -> ([i, j])"\n  reduction: [k, q]\n', "3:18",
     "'q' is not a factor of the rule; factors: i, j, k"),
    ('mydialect.x: "([i, ..., j]) -> ([i])"\n', "1:20", "'...' must be the first dimension"),
    ('mydialect.x: "([i, i]) -> ([i])"\n', "1:20", "factor 'i' appears twice in one tensor"),
    ('mydialect.x: {rule: "([i]) -> ([i])", reductoin: [i]}\n', "1:39",
     "unknown key 'reductoin' in a rule; expected one of: rule, reduction, need_replication, "
     "permutation, blocked_propagation, factors, custom"),
    ('mydialect.x: {rule: "([i, j]) -> ([i])", factors: [j]}\n', "1:51",
     "'factors' must list every factor of the rule once: i, j"),
    ("stablehlo.add: elementwise\nstablehlo.add: none\n", "2:1", "duplicate key 'stablehlo.add'"),
    ("add: elementwise\n", "1:1", "expected an op name like 'stablehlo.add', got 'add'"),
    ("stablehlo.custom_call:\n  by: call_target_name\n", "2:7",
     "'by' needs 'cases': a mapping from attribute values to declarations"),
    (f"hooks: {HOOKS}\nstablehlo.dot: {{builder: dott}}\n", "2:26", "unknown builder 'dott'"),
    (f"hooks: {HOOKS}\nstablehlo.slice:\n  builder: pointwise_with_mismatch\n"
     "  with: {sizes: operand 0}\n", "4:10",
     "builder 'pointwise_with_mismatch' has no argument 'sizes'; it takes: sizes_of, "
     "compare_with, mismatch, blocked"),
    (f"hooks: {HOOKS}\nstablehlo.slice:\n  builder: pointwise_with_mismatch\n"
     "  with: {mismatch: permutaton}\n", "4:20",
     "builder 'pointwise_with_mismatch': 'mismatch' must be one of: pass_through, reduction, "
     "need_replication, permutation"),
])
def test_rule_file_errors(tmp_path, text, where, message):
    path = write(tmp_path, text)
    with pytest.raises(RuleFileError) as error:
        registry_of_files(path)
    assert str(error.value).startswith(f"{path}:{where}: error: {message}")


def test_user_copy_without_hook_module_uses_builtin_builders(tmp_path):
    # A user's copy of the declarations (e.g. in a --rules DIR) needs no Python beside it...
    registry_of_files(write(tmp_path, "stablehlo.dot: {builder: dot}\n"))
    # ...and a builder that does not exist is still an error at its position.
    with pytest.raises(RuleFileError, match=r"rules.yaml:1:26: error: unknown builder 'no_such_builder'"):
        registry_of_files(write(tmp_path, "stablehlo.dot: {builder: no_such_builder}\n"))


def test_static_rules_are_cached_per_types(registry):
    with make_context():
        module = ir.Module.parse("""
          func.func @f(%a: tensor<4x8xf32>, %b: tensor<2xf32>) {
            %0 = stablehlo.add %a, %a : tensor<4x8xf32>
            %1 = stablehlo.multiply %0, %a : tensor<4x8xf32>
            %2 = stablehlo.add %0, %0 : tensor<4x8xf32>
            %3 = stablehlo.add %b, %b : tensor<2xf32>
            return
          }""")
        adds = [op for op in all_ops(module) if op.name == "stablehlo.add"]
        first, second, other = (sharding_rule_for(op, registry=registry) for op in adds)
        assert first is second and first != other
