"""Every tie-break and ranking the passes make, on a module where the tie
happens, against the C++ reference.

Each case is a module on which two choices are equally good up to the field
under test, so that field alone decides: the output must be the reference's,
and it must show the choice the reference makes (`wins`) and not the other
one (`loses`) — a flipped tie-break changes the module, and this test fails.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from reference import run_reference
from sdy_dsl.api import run_pipeline

EXPLICIT = "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
EXPLICIT_DEFAULT = "builtin.module(func.func(sdy-insert-explicit-reshards))"
AGGRESSIVE = "builtin.module(sdy-aggressive-propagate)"
TO_COLLECTIVES = "builtin.module(func.func(sdy-reshard-to-collectives))"


def same_as_reference(text: str, pipeline: str) -> str:
    ok, expected = run_reference(text, pipeline)
    assert ok, "the reference rejected the input"
    got = run_pipeline(text, pipeline).text.rstrip("\n") + "\n"
    assert got == expected
    return got


def module(mesh: str, args: list[tuple[str, str]], op: str, result: str) -> str:
    """One function: arguments (type, dims sharding on @mesh), one op %0, returned."""
    params = ", ".join(f"%arg{i}: tensor<{t}xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{s}]>}}"
                       for i, (t, s) in enumerate(args))
    return (f"sdy.mesh @mesh = <[{mesh}]>\n"
            f"func.func @f({params}) -> tensor<{result}xf32> {{\n"
            f"  %0 = {op}\n"
            f"  return %0 : tensor<{result}xf32>\n}}\n")


@dataclass
class Tie:
    text: str
    pipeline: str
    wins: str  # in the output: the choice the reference makes
    loses: str  # ... and what the other choice would give


def add(shape: str) -> str:
    return f"stablehlo.add %arg0, %arg1 : tensor<{shape}xf32>"


def dot(lhs: str, rhs: str, out: str) -> str:
    return (f"stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : "
            f"(tensor<{lhs}xf32>, tensor<{rhs}xf32>) -> tensor<{out}xf32>")


def with_result_sharding(op: str, dims: str) -> str:
    head, _, tail = op.partition(" : ")
    return f"{head} {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{dims}]>]>}} : {tail}"


# --------------------------------------------------------------------------- insert-explicit-reshards
# The greedy candidate loop picks the largest (factor, axes) by `candidate-ranking`:
# source-tensor-size, factor-type-precedence, sharding-size, factor-index, axes.
# Each case ties on every field before the one named.

CANDIDATE_RANKING = {
    # lhs (8x32, 256 elements) shards the contracting factor on "x", rhs (32x4, 128)
    # the pass-through factor n: the larger source wins over the higher precedence.
    "source-tensor-size": Tie(
        module('"x"=2', [("8x32", '{}, {"x"}'), ("32x4", '{}, {"x"}')], dot("8x32", "32x4", "8x4"), "8x4"),
        EXPLICIT, wins='sdy.reshard %arg1 <@mesh, [{"x"}, {}]>', loses="sdy.reshard %arg0"),
    # equal sources (128 elements each): the pass-through factor m beats the
    # contracting factor k, though k has the higher index.
    "factor-type-precedence": Tie(
        module('"x"=2', [("8x16", '{"x"}, {}'), ("16x8", '{"x"}, {}')], dot("8x16", "16x8", "8x8"), "8x8"),
        EXPLICIT, wins="sdy.reshard %arg1 <@mesh, [{}, {}]>", loses="sdy.all_reduce"),
    # factor 0 on "x" (4) against factor 1 on "x":(1)2: the larger sharding wins,
    # though factor 1 has the higher index.
    "sharding-size": Tie(
        module('"x"=4', [("8x8", '{"x"}, {}'), ("8x8", '{}, {"x":(1)2}')], add("8x8"), "8x8"),
        EXPLICIT, wins='sdy.reshard %arg1 <@mesh, [{"x"}, {}]>', loses="sdy.reshard %arg0"),
    # two pass-through factors of one size on "x": the higher factor index wins.
    "factor-index": Tie(
        module('"x"=2', [("8x8", '{"x"}, {}'), ("8x8", '{}, {"x"}')], add("8x8"), "8x8"),
        EXPLICIT, wins='sdy.reshard %arg0 <@mesh, [{}, {"x"}]>', loses="sdy.reshard %arg1"),
    # one factor, "x" against "y": the greater axes by AxisRefAttr order.
    "axes": Tie(
        module('"x"=2, "y"=2', [("8", '{"x"}'), ("8", '{"y"}')], add("8"), "8"),
        EXPLICIT, wins='sdy.reshard %arg0 <@mesh, [{"y"}]>', loses="sdy.reshard %arg1"),
    # ... and two sub-axes of one axis: "x":(2)2 sorts after "x":(1)2.
    "axes-sub-axis-order": Tie(
        module('"x"=4', [("8", '{"x":(1)2}'), ("8", '{"x":(2)2}')], add("8"), "8"),
        EXPLICIT, wins='sdy.reshard %arg0 <@mesh, [{"x":(2)2}]>', loses="sdy.reshard %arg1"),
    # two axes each, in the other order: compared axis by axis from the major one
    "axes-major-first": Tie(
        module('"x"=2, "y"=2', [("8", '{"x", "y"}'), ("8", '{"y", "x"}')], add("8"), "8"),
        EXPLICIT, wins='sdy.reshard %arg0 <@mesh, [{"y", "x"}]>', loses="sdy.reshard %arg1"),
    # the same, given in the other order: the axes decide, not the operand position
    "axes-sub-axis-order-swapped": Tie(
        module('"x"=4', [("8", '{"x":(2)2}'), ("8", '{"x":(1)2}')], add("8"), "8"),
        EXPLICIT, wins='sdy.reshard %arg1 <@mesh, [{"x":(2)2}]>', loses="sdy.reshard %arg0"),
}

# For an op with two non-scalar tensors, one tensor's sharding wins
# (`unary-preference`: no-sharded-permutation-factor, tensor-size, sharding-size;
# a full tie: the operand).
UNARY_PREFERENCE = {
    # equal sizes: the operand shards reverse's permutation factor, the result
    # does not, so the result's sharding wins.
    "no-sharded-permutation-factor": Tie(
        module('"x"=2', [("8x16", '{"x"}, {}')], with_result_sharding(
            "stablehlo.reverse %arg0, dims = [0] : tensor<8x16xf32>", '{}, {"x"}'), "8x16"),
        EXPLICIT, wins='sdy.reshard %arg0 <@mesh, [{}, {"x"}]>', loses="stablehlo.reverse %arg0"),
    "tensor-size": Tie(
        module('"x"=2', [("8", '{"x"}')], with_result_sharding(
            "stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>", '{}, {"x"}'),
            "8x16"),
        EXPLICIT, wins="sdy.reshard %arg0 <@mesh, [{}]>",
        loses='sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>'),
    "full-tie-prefers-the-operand": Tie(
        module('"x"=2', [("8x16", '{"x"}, {}')], with_result_sharding(
            "stablehlo.negate %arg0 : tensor<8x16xf32>", '{}, {"x"}'), "8x16"),
        EXPLICIT, wins='stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}',
        loses="sdy.reshard %arg0"),
}

# An op whose tensors sit on two meshes (same axes, other device order) with
# the same count of sharded tensors: the first sharded tensor's mesh.
TWO_MESHES = """
sdy.mesh @mesh_a = <["x"=2, "y"=2]>
sdy.mesh @mesh_b = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@FIRST, [{"x"}, {}]>},
             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@SECOND, [{}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""
MESH_CHOICE = {
    f"{first}-first": Tie(TWO_MESHES.replace("FIRST", first).replace("SECOND", second), EXPLICIT,
                          wins=f'stablehlo.add %0, %1 {{sdy.sharding = #sdy.sharding_per_value<[<@{first}, ',
                          loses=f'sdy.sharding_per_value<[<@{second}')
    for first, second in (("mesh_a", "mesh_b"), ("mesh_b", "mesh_a"))
}

# Unreduced axes are kept sorted in mesh order and merged: the source's
# "x":(4)2 and the new "x":(1)4 become "x" only if "x":(1)4 sorts first.
UNREDUCED_ORDER = {
    "sub-axes-merge-in-mesh-order": Tie(
        'sdy.mesh @mesh = <["x"=8, "y"=2]>\n'
        'func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x":(4)2}>})'
        ' -> tensor<8x8xf32> {\n'
        '  %0 = sdy.reshard %arg0 <@mesh, [{}, {}], unreduced={"x"}> : tensor<8x8xf32>\n'
        '  return %0 : tensor<8x8xf32>\n}\n',
        EXPLICIT_DEFAULT, wins='sdy.replicated_to_unreduced {"x":(1)4} %arg0 out_sharding=<@mesh, [{}, {}], '
                             'unreduced={"x"}>', loses='unreduced={"x":(4)2, "x":(1)4}'),
}

# --------------------------------------------------------------------------- aggressive propagation
# A factor conflict goes to the factor ranked first by (-source size, -sharded
# size on elementwise ops, source index, factor index).

AGGRESSIVE_SOURCE = {
    # m's source is lhs (128 elements), n's is rhs (512): n takes "x" on the result.
    "source-size": Tie(
        module('"x"=2', [("8x16", '{"x"}, {}'), ("16x32", '{}, {"x"}')], dot("8x16", "16x32", "8x32"), "8x32"),
        AGGRESSIVE, wins='sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>', loses='[{"x", ?}, {?}]'),
    # equal sources (128 each): the lower source index, lhs, so m takes "x".
    "source-index": Tie(
        module('"x"=2', [("8x16", '{"x"}, {}'), ("16x8", '{}, {"x"}')], dot("8x16", "16x8", "8x8"), "8x8"),
        AGGRESSIVE, wins='sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>', loses='[{?}, {"x", ?}]'),
    # the source of factor 0 is the first of two equal tensors holding it (arg0,
    # not arg2), so it comes before factor 1 (source arg1) and takes "x".
    "source-tie-first-tensor": Tie(
        module('"x"=2', [("8x8", '{"x"}, {}'), ("8x8", '{}, {"x"}'), ("8x8", '{"x"}, {}')],
               "stablehlo.clamp %arg0, %arg1, %arg2 : tensor<8x8xf32>", "8x8"),
        AGGRESSIVE, wins='sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>', loses='[{?}, {"x", ?}]'),
    # elementwise, equal sources: factor 1 on "x" (4) before factor 0 on "x":(1)2.
    "sharded-size": Tie(
        module('"x"=4', [("8x8", '{"x":(1)2}, {}'), ("8x8", '{}, {"x"}')], add("8x8"), "8x8"),
        AGGRESSIVE, wins='sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>', loses='[{"x":(1)2, ?}, {?}]'),
}

TIES = {**{f"candidate-ranking/{k}": v for k, v in CANDIDATE_RANKING.items()},
        **{f"unary-preference/{k}": v for k, v in UNARY_PREFERENCE.items()},
        **{f"mesh-choice/{k}": v for k, v in MESH_CHOICE.items()},
        **{f"unreduced-order/{k}": v for k, v in UNREDUCED_ORDER.items()},
        **{f"aggressive-source/{k}": v for k, v in AGGRESSIVE_SOURCE.items()}}


@pytest.mark.parametrize("name", sorted(TIES))
def test_tie_break_matches_the_reference(name):
    tie = TIES[name]
    out = same_as_reference(tie.text, tie.pipeline)
    assert tie.wins in out
    assert tie.loses not in out


# --------------------------------------------------------------------------- reshard-to-collectives
# The chain tries, each round: all-slice, collective-permute, all-to-all (in
# order, then out of order), all-gather. Each reshard below needs several of
# them, so a different step order gives another chain.

RESHARDS = [
    # (rank, from, to, the chain's collectives in order)
    (2, '[{"y", "z"}, {}]', '[{}, {"x", "y"}]', ["all_slice", "collective_permute", "all_to_all", "all_gather"]),
    (2, '[{"y", "z"}, {}]', '[{}, {"y"}]', ["collective_permute", "all_to_all", "all_gather"]),
    (2, '[{"y", "z"}, {}]', '[{"x"}, {"z"}]', ["all_slice", "collective_permute", "all_gather"]),
    (2, '[{"y", "z"}, {}]', '[{"x"}, {"y", "z"}]', ["all_slice", "collective_permute", "all_to_all"]),
    (2, '[{"y", "z"}, {}]', '[{}, {"x", "z"}]', ["all_slice", "all_to_all", "all_gather"]),
    (2, '[{"z"}, {}]', '[{}, {"y"}]', ["all_slice", "all_gather"]),
    # the second all-to-all is out of order ("w" then "z" on dim 0, moved from two dims)
    (3, '[{"x"}, {"z"}, {"y", "w"}]', '[{"x", "w", "z"}, {}, {}]', ["all_to_all", "all_to_all", "all_gather"]),
]


def reshard_module(rank: int, source: str, target: str) -> str:
    t = "tensor<" + "x".join(["16"] * rank) + "xf32>"
    return ('sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2, "w"=2]>\n'
            f"func.func @f(%arg0: {t} {{sdy.sharding = #sdy.sharding<@mesh, {source}>}}) -> {t} {{\n"
            f"  %0 = sdy.reshard %arg0 <@mesh, {target}> : {t}\n"
            f"  return %0 : {t}\n}}\n")


@pytest.mark.parametrize("rank,source,target,chain", RESHARDS,
                         ids=[f"{s}->{t}" for _, s, t, _ in RESHARDS])
def test_collective_step_order_matches_the_reference(rank, source, target, chain):
    out = same_as_reference(reshard_module(rank, source, target), TO_COLLECTIVES)
    assert re.findall(r"= sdy\.(\w+) ", out) == chain
