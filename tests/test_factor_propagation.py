"""Unit tests of the factor strategies on hand-built sharding projections, in
the manner of Shardy's basic_factor_propagation_test.cc and
aggressive_factor_propagation_test.cc: each case is a projection (per tensor,
factor -> axes), the expected projection after one step, and the tensors the
step reports as updated. Tests are named after the function they pin
(`propagateFactorShardings` of each strategy: `BasicFactorPropagation.propagate`,
`AggressiveFactorPropagation.propagate`).

Notation of a tensor: {factor: "a, b:(1)2"}; a trailing "!" closes the factor,
"| x" after the axes are its overflow axes; `replicated=` its replicated axes.
Every mesh axis has size 16 and every factor a size all of them divide, so
only the conflicts the case is about cut an axis list.
"""
from __future__ import annotations

import re

import pytest

from sdy_dsl.runtime.propagation.aggressive_factor_propagation import AGGRESSIVE
from sdy_dsl.runtime.propagation.basic_factor_propagation import BASIC
from sdy_dsl.runtime.propagation.factor_propagation import (Direction, intersect_directions,
                                                            union_directions)
from sdy_dsl.runtime.sharding import AxisRef, Mesh, MeshAxis
from sdy_dsl.runtime.sharding_projection import (FactorSharding, ShardingProjection,
                                                 TensorFactorShardings)

MESH = Mesh(tuple(MeshAxis(name, 16) for name in "abcdefghijk"))
FACTOR_SIZE = 16 ** 6  # divisible by any product of the mesh's axes in a case


def axis(text: str) -> AxisRef:
    m = re.fullmatch(r"(\w+)(?::\((\d+)\)(\d+))?", text.strip())
    return AxisRef(m.group(1), int(m.group(2)), int(m.group(3))) if m.group(2) else AxisRef(m.group(1))


def axes(text: str) -> list[AxisRef]:
    return [axis(a) for a in text.split(",") if a.strip()]


def tensor(factors: dict[int, str], replicated: str = "") -> TensorFactorShardings:
    t = TensorFactorShardings()
    for factor, spec in factors.items():
        fs = FactorSharding()
        fs.is_closed = spec.strip().endswith("!")
        spec, _, overflow = spec.strip().rstrip("!").partition("|")
        fs.axes = axes(spec)
        fs.overflow = axes(overflow)
        t.factors[factor] = fs
    t.replicated = tuple(axes(replicated))
    return t


def text_of(t: TensorFactorShardings) -> dict[int, str]:
    out = {}
    for factor, fs in t.factors.items():
        text = ", ".join(a.text().replace('"', "") for a in fs.axes)
        if fs.overflow:
            text += " | " + ", ".join(a.text().replace('"', "") for a in fs.overflow)
        out[factor] = text + ("!" if fs.is_closed else "")
    return out


def run(strategy, operands, results, direction=Direction.BOTH, conservative=False,
        elementwise=False, factor_sizes=None):
    projection = ShardingProjection([tensor(*o) if isinstance(o, tuple) else tensor(o) for o in operands],
                                    [tensor(*r) if isinstance(r, tuple) else tensor(r) for r in results])
    num_factors = 1 + max(f for t in projection.tensors() for f in t.factors)
    sizes = factor_sizes or [FACTOR_SIZE] * num_factors
    directions = direction if callable(direction) else (lambda f: direction)
    updated = strategy.propagate(projection, directions, sizes, MESH, conservative, elementwise)
    return ([text_of(t) for t in projection.operands], [text_of(t) for t in projection.results],
            (sorted(updated[0]), sorted(updated[1])))


def spec(t: dict[int, str]) -> dict[int, str]:
    """A case's expected tensor, normalized like text_of's output."""
    return {f: text_of(tensor({f: s}))[f] for f, s in t.items()}


# --------------------------------------------------------------------------- basic


BASIC_CASES = {
    # name: (operands, results, expected operands, expected results, updated (operands, results))
    "compatible_major_axes_reach_every_tensor": (
        [{0: "a"}, {0: ""}],
        [{0: "a, b, c"}, {0: "a, b, d"}],
        [{0: "a, b"}, {0: "a, b"}],
        [{0: "a, b, c"}, {0: "a, b, d"}],
        ([0, 1], [])),
    "a_factor_that_disagrees_keeps_its_axes": (
        [{0: "h"}], [{0: "i"}, {0: "i, j"}],
        [{0: "h"}], [{0: "i"}, {0: "i, j"}],
        ([], [])),
    "an_axis_another_factor_holds_is_cut_with_the_rest": (
        [{0: "a", 1: "b"}], [{0: "a, b, c"}],
        [{0: "a", 1: "b"}], [{0: "a, b, c"}],
        ([], [])),
    "a_closed_factor_takes_nothing_it_does_not_hold": (
        [{2: "f!"}], [{2: "f, g!"}, {2: ""}],
        [{2: "f!"}], [{2: "f, g!"}, {2: "f"}],
        ([], [1])),
    "replicated_axes_cut_an_axis_to_its_prefix": (
        [{3: "h:(1)2, i"}], [({3: ""}, "i:(2)8")],
        [{3: "h:(1)2, i"}], [{3: "h:(1)2, i:(1)2"}],
        ([], [0])),
    "another_factors_overflow_axes_conflict": (
        [{0: "a, b", 1: "c"}], [{0: "", 1: "| b:(1)2"}],
        [{0: "a, b", 1: "c"}], [{0: "a", 1: "| b:(1)2"}],
        ([], [0])),
    "sub_axes_of_one_axis_split_between_factors": (
        [{0: "a:(1)4", 1: "a:(4)4"}], [{0: "", 1: ""}],
        [{0: "a:(1)4", 1: "a:(4)4"}], [{0: "a:(1)4", 1: "a:(4)4"}],
        ([], [0])),
}


@pytest.mark.parametrize("case", sorted(BASIC_CASES))
def test_basic_propagate_factor_shardings(case):
    operands, results, want_operands, want_results, updated = BASIC_CASES[case]
    got_operands, got_results, got_updated = run(BASIC, operands, results)
    assert got_operands == [spec(t) for t in want_operands]
    assert got_results == [spec(t) for t in want_results]
    assert got_updated == updated


@pytest.mark.parametrize("direction,operand_to_result,result_to_operand", [
    (Direction.BOTH, True, True),
    (Direction.FORWARD, True, False),
    (Direction.BACKWARD, False, True),
    (Direction.NONE, False, False),
], ids=["both", "forward", "backward", "none"])
def test_basic_propagate_factor_shardings_in_one_direction(direction, operand_to_result,
                                                           result_to_operand):
    # FORWARD: only the operands' axes may extend the factor's list (the
    # results take it); BACKWARD: only the results'.
    wider_operand = run(BASIC, [{0: "a, b"}], [{0: "a"}], direction=direction)
    assert wider_operand[1] == [spec({0: "a, b" if operand_to_result else "a"})]
    assert wider_operand[2] == ([], [0] if operand_to_result else [])
    wider_result = run(BASIC, [{0: "a"}], [{0: "a, b"}], direction=direction)
    assert wider_result[0] == [spec({0: "a, b" if result_to_operand else "a"})]
    assert wider_result[2] == ([0] if result_to_operand else [], [])


@pytest.mark.parametrize("conservative,want", [(False, "c, d:(1)2"), (True, "c")],
                         ids=["default", "conservative"])
def test_basic_propagate_factor_shardings_conservatively(conservative, want):
    # A factor of size 32 takes "c" (16) and half of "d"; conservative
    # propagation never splits an axis into sub-axes.
    _, got_results, _ = run(BASIC, [{0: "c, d"}], [{0: ""}], conservative=conservative,
                            factor_sizes=[32])
    assert got_results[0] == spec({0: want})


# --------------------------------------------------------------------------- aggressive


def test_aggressive_propagate_factor_shardings_resolves_a_conflict_basic_leaves():
    # Both factors want "a" in the result; basic gives it to neither. Aggressive
    # prefers the factor whose source tensor is larger: operand 1 holds
    # factors 1 and 2 (the larger tensor), so factor 1 takes "a".
    operands = [{0: "a"}, {1: "a", 2: ""}]
    results = [{0: "", 1: ""}]
    assert run(BASIC, operands, results)[1] == [spec({0: "", 1: ""})]
    got_operands, got_results, updated = run(AGGRESSIVE, operands, results)
    assert got_results == [spec({0: "", 1: "a"})]
    assert got_operands == [spec({0: "a"}), spec({1: "a", 2: ""})]
    assert updated == ([], [0])


def test_aggressive_propagate_factor_shardings_prefers_the_lower_source_index_on_a_tie():
    operands = [{0: "a"}, {1: "a"}]
    results = [{0: "", 1: ""}]
    _, got_results, updated = run(AGGRESSIVE, operands, results)
    assert got_results == [spec({0: "a", 1: ""})]
    assert updated == ([], [0])


@pytest.mark.parametrize("elementwise,want_operand", [(False, "b, c"), (True, "b")],
                         ids=["not-elementwise", "elementwise"])
def test_aggressive_propagate_factor_shardings_no_sideways_propagation_for_elementwise_ops(
        elementwise, want_operand):
    # Operand 1 has ["b", "c"], the result ["b"] closed: an elementwise op's
    # operand 0 gets no more than the result has.
    got_operands, _, _ = run(AGGRESSIVE, [{0: ""}, {0: "b, c"}], [{0: "b!"}],
                             elementwise=elementwise)
    assert got_operands[0] == spec({0: want_operand})


@pytest.mark.parametrize("direction,want_operand,want_result", [
    (Direction.FORWARD, "", "a"),
    (Direction.BACKWARD, "a", ""),
], ids=["forward", "backward"])
def test_aggressive_propagate_factor_shardings_in_one_direction(direction, want_operand, want_result):
    got_operands, got_results, _ = run(AGGRESSIVE, [{0: ""}, {0: "a"}], [{0: ""}, {0: "a"}],
                                       direction=direction)
    assert got_operands[0] == spec({0: want_operand})
    assert got_results[0] == spec({0: want_result})


# --------------------------------------------------------------------------- directions


N, F, B, X = Direction.NONE, Direction.FORWARD, Direction.BACKWARD, Direction.BOTH


@pytest.mark.parametrize("a,b,union,intersection", [
    (N, N, N, N), (N, F, F, N), (F, B, X, N), (F, X, X, F), (B, X, X, B), (X, X, X, X), (F, F, F, F),
])
def test_union_and_intersection_of_directions(a, b, union, intersection):
    assert union_directions(a, b) == union_directions(b, a) == union
    assert intersect_directions(a, b) == intersect_directions(b, a) == intersection
