"""Unit tests of the sharding projection (Shardy's sharding_projection.cc and
its sharding_projection_test.cc): a tensor sharding projected onto the
factors of an op's sharding rule (`ShardingProjection.build`, Shardy's
`ShardingProjection::build`), and factor shardings projected back
(`TensorFactorShardings.to_tensor_sharding`, Shardy's
`createTensorShardingAttr`). Factor shardings are written as in
test_factor_propagation.py: "a:(1)2, b", "!" closed, "| x" overflow axes.
"""
from __future__ import annotations

import pytest

from sdy_dsl.runtime.op_sharding_rule import OpShardingRule
from sdy_dsl.runtime.sharding import parse_mesh, parse_tensor_sharding
from sdy_dsl.runtime.sharding_projection import ShardingProjection
from test_factor_propagation import tensor, text_of

MESH = parse_mesh('<["a"=4, "b"=2, "c"=3]>')


def rule(dims: list[list[int]], sizes: list[int]) -> OpShardingRule:
    return OpShardingRule(tuple(sizes), (tuple(tuple(d) for d in dims),), ())


BUILD_CASES = {
    # name: (sharding of the one operand, its dims' factors, factor sizes, factor shardings)
    "one_factor_per_dimension": (
        '<@mesh, [{"a"}, {"b"}]>', [[0], [1]], [8, 4], {0: "a!", 1: "b!"}),
    "open_dimensions_give_open_factors": (
        '<@mesh, [{"a", ?}, {?}]>', [[0], [1]], [8, 4], {0: "a", 1: ""}),
    "a_major_factor_takes_the_gcd_of_its_size_and_the_axis": (
        '<@mesh, [{"a", "b"}]>', [[0, 1]], [2, 8], {0: "a:(1)2!", 1: "a:(2)2, b!"}),
    "a_major_factor_takes_whole_axes_then_a_sub_axis": (
        '<@mesh, [{"c", "a"}]>', [[0, 1]], [6, 2], {0: "c, a:(1)2!", 1: "a:(2)2!"}),
    "three_factors_share_one_dimension": (
        '<@mesh, [{"a", "b"}]>', [[0, 1, 2]], [2, 2, 2], {0: "a:(1)2!", 1: "a:(2)2!", 2: "b!"}),
    "coprime_sizes_make_the_rest_overflow_axes": (
        '<@mesh, [{"a"}]>', [[0, 1]], [3, 4], {0: "| a!", 1: "!"}),
}


@pytest.mark.parametrize("case", sorted(BUILD_CASES))
def test_sharding_projection_build(case):
    text, dims, sizes, expected = BUILD_CASES[case]
    r = rule(dims, sizes)
    sharding = parse_tensor_sharding(text)
    projected = ShardingProjection.build([sharding], [], r, MESH).operands[0]
    assert text_of(projected) == {f: text_of(tensor({f: s}))[f] for f, s in expected.items()}
    # and back: the projection of a sharding is that sharding again
    assert projected.to_tensor_sharding(r.operand_mappings[0], r.factor_sizes, "mesh", MESH) == sharding


def test_sharding_projection_build_keeps_replicated_axes():
    sharding = parse_tensor_sharding('<@mesh, [{"a"}, {"b"}], replicated={"c"}>')
    projected = ShardingProjection.build([sharding], [], rule([[1], [0]], [8, 4]), MESH).operands[0]
    assert text_of(projected) == {1: "a!", 0: "b!"}
    assert [a.name for a in projected.replicated] == ["c"]


def test_sharding_projection_build_closes_a_missing_sharding_when_asked():
    r = rule([[0], [1]], [8, 4])
    assert text_of(ShardingProjection.build([None], [], r, MESH).operands[0]) == {0: "", 1: ""}
    closed = ShardingProjection.build([None], [], r, MESH, closed_if_missing=True).operands[0]
    assert text_of(closed) == {0: "!", 1: "!"}


@pytest.mark.parametrize("factors,expected", [
    ({0: "a", 1: "b"}, '<@mesh, [{"a", "b", ?}]>'),
    # factor 0 (size 8) not fully sharded: factor 1's axes would need a strided view
    ({0: "b", 1: "a:(1)2"}, '<@mesh, [{"b", ?}]>'),
    ({0: "| a", 1: "b"}, '<@mesh, [{"a", ?}]>'),
    ({0: "a:(1)2", 1: ""}, '<@mesh, [{"a":(1)2, ?}]>'),
], ids=["both-factors", "strided-view-stops", "overflow-axes-end-the-dimension", "sub-axis"])
def test_to_tensor_sharding(factors, expected):
    # One dimension of factors (0: size 4, 1: size 2), both open.
    r = rule([[0, 1]], [4, 2])
    got = tensor(factors).to_tensor_sharding(r.operand_mappings[0], r.factor_sizes, "mesh", MESH)
    assert str(got) == "#sdy.sharding" + expected
