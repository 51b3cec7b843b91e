"""Propagation (sdy-{basic,aggressive,op-priority,user-priority}-propagate) vs the reference.

Every input goes through the reference import pipeline first (as in the real
pipeline), then both the C++ pass and our engine run on it; whole-module
output must be identical. Rules come from the reference registry here, so
these tests check the engine independently of the Python rule registry.
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from jaxlib.mlir import ir

from propagation_support import pass_schedule, reference_import, run_ours, run_reference
from sdy_dsl.mlir_context import make_context
from sdy_dsl.rule_library import builtin_library
from sdy_dsl.runtime.propagation import Direction, heuristics_from_data, propagate
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.propagation.factor_propagation import intersect_directions, union_directions

DATA = Path(__file__).parent / "data" / "propagation"
STRATEGIES = ["basic", "aggressive", "op-priority", "user-priority"]


def chunks(name: str) -> list[str]:
    return (DATA / name).read_text().split("// -----\n")


def cases(name: str):
    return [pytest.param(name, i, id=f"{name}#{i}") for i in range(len(chunks(name)))]


def assert_same(expected: str, actual: str):
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                              "reference", "ours", lineterm="", n=1))
        pytest.fail("output differs from the reference:\n" + diff[:6000])


@pytest.fixture(scope="module")
def imported():
    cache = {}

    def get(name: str, index: int) -> str:
        key = (name, index)
        if key not in cache:
            cache[key] = reference_import(chunks(name)[index])
        return cache[key]

    return get


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name,index", cases("single_ops.mlir") + cases("features.mlir"))
def test_matches_reference(imported, name, index, strategy):
    text = imported(name, index)
    assert_same(run_reference(text, strategy), run_ours(text, strategy))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name,index", cases("single_ops.mlir")[:3] + cases("features.mlir"))
@pytest.mark.parametrize("option,kwargs", [
    ("{keep-sharding-rules=true}", {"keep_sharding_rules": True}),
    ("{conservative-propagation=true}", {"conservative_propagation": True}),
], ids=["keep-sharding-rules", "conservative"])
def test_options_match_reference(imported, name, index, strategy, option, kwargs):
    text = imported(name, index)
    assert_same(run_reference(text, strategy, option), run_ours(text, strategy, **kwargs))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", ["mlp_grad_2x4.imported.mlir", "shard_map_2x4.imported.mlir"])
def test_real_modules(name, strategy):
    # Already imported (JAX-lowered corpus modules through the import pipeline).
    text = (DATA / name).read_text()
    assert_same(run_reference(text, strategy), run_ours(text, strategy))


@pytest.mark.parametrize("strategy", ["basic", "user-priority"])
def test_dead_ops_are_erased_like_the_reference(strategy):
    # The reference's rewrite driver erases unused side-effect-free ops.
    text = (DATA / "dead_code.mlir").read_text()
    assert_same(run_reference(text, strategy), run_ours(text, strategy))


def test_direction_algebra():
    F, B, N, BOTH = Direction.FORWARD, Direction.BACKWARD, Direction.NONE, Direction.BOTH
    assert union_directions(F, B) == BOTH
    assert union_directions(N, F) == F
    assert intersect_directions(F, B) == N
    assert intersect_directions(BOTH, B) == B


def test_heuristics_from_data_match_default_list():
    data = [{"name": "h", "cases": [{"when": {"op_name": ["stablehlo.reshape"]},
                                     "direction": "BOTH"},
                                    {"when": {"not": "elementwise"}, "direction": "forward"}],
             "default": "NONE"}]
    (heuristic,) = heuristics_from_data(data)
    assert heuristic.name == "h" and len(heuristic.cases) == 2
    assert [h.name for h in builtin_library().heuristics] == [
        "pass-through-ops-single-use", "pass-through-ops", "only-pass-through-factors-broadcast-backward",
        "any-except-broadcast-forward", "any"]
    with pytest.raises(ValueError):
        heuristics_from_data([{"name": "bad", "cases": [{"when": "nope", "direction": "BOTH"}]}])


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name,index", cases("named_computation_without_edges.mlir"))
def test_named_computation_without_data_flow_edges(name, index, strategy):
    # Not imported: no edges, so shardings land in in/out_shardings directly
    # (the others fully open), and nothing crosses the computation's boundary.
    text = chunks(name)[index]
    assert_same(run_reference(text, strategy), run_ours(text, strategy))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_conflicting_sharding_group_gets_open_constraints(strategy):
    # Group members with different initial shardings: each is replaced by an
    # open sharding constraint of it before propagating. Rules come from our
    # registry: the reference provider only knows the input's ops.
    text = reference_import((DATA / "sharding_group_conflict.mlir").read_text())
    codec.clear()
    with make_context():
        module = ir.Module.parse(text)
        schedule, options = pass_schedule(strategy)
        propagate(module.operation, schedule, options, registry=builtin_library().op_registry)
        ours = str(module)
    codec.clear()
    assert_same(run_reference(text, strategy), ours)
