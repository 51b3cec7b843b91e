"""Real modules (examples/*.mlir and the model zoo) through the seven passes of
issue 3: sdy-dsl's output equals the C++ reference's.

Passes that expect an earlier pass of the import pipeline get the reference's
output of that prefix as input (e.g. sdy-sink-data-flow-edges runs on modules
with data-flow edges).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from models.zoo import MODELS
from reference import pipeline_from_flags, run_reference

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
# Every zoo model: loops (while/fori/scan), cond, shard_map, shard_alike,
# constraints, constants and iotas, convolutions, MoE, custom calls, priorities.
ZOO = sorted(MODELS)

# pass -> reference passes run first to make its input
PASSES = {
    "sdy-add-data-flow-edges": [],
    "sdy-sink-data-flow-edges": ["sdy-add-data-flow-edges"],
    "sdy-apply-sharding-constraints": ["sdy-add-data-flow-edges"],
    "sdy-manual-axes-cleanup": [],
    "sdy-sharding-group-import": [],
    "sdy-update-non-divisible-input-output-shardings": [],
    "sdy-constant-or-scalar-splitter": [],
}


def _pipeline(passes: list[str]) -> str:
    return pipeline_from_flags(passes)


_inputs: dict = {}


def _source(name: str) -> str:
    if name not in _inputs:
        if name.endswith(".mlir"):
            _inputs[name] = (ROOT / "examples" / name).read_text()
        else:
            from models.zoo import lowered
            _inputs[name] = lowered(name)
    return _inputs[name]


def _input(name: str, prefix: list[str]) -> str:
    key = (name, tuple(prefix))
    if key not in _inputs:
        text = _source(name)
        if prefix:
            ok, text = run_reference(text, _pipeline(prefix))
            assert ok, f"the reference prefix {prefix} rejected {name}"
        _inputs[key] = text
    return _inputs[key]


MODULES = [p.name for p in EXAMPLES] + ZOO


@pytest.mark.parametrize("pass_name", list(PASSES))
@pytest.mark.parametrize("module", MODULES)
def test_corpus_module_matches_reference(module, pass_name, tmp_path):
    text = _input(module, PASSES[pass_name])
    ok, expected = run_reference(text, _pipeline([pass_name]))
    assert ok, "the reference rejected the input"
    path = tmp_path / "in.mlir"
    path.write_text(text)
    rc, out, err = run_sdy_dsl(["opt", str(path), "-" + pass_name])
    assert rc == 0, err
    assert out == expected
