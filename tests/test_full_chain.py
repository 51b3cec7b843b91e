"""The shipped full Shardy chain (pipelines/shardy_full.yaml) on real modules:
every JAX model of the zoo (MLP, GPT with/without scan, TP/FSDP, convnet,
mixture-of-experts with top_k, shard_map, while/cond, shard_alike, user
priorities, ...) and every bundled example. sdy-dsl's output must equal the
C++ reference's output of the same chain, written out here independently of
the pipeline file.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from models.zoo import MODELS, lowered
from reference import run_reference

ROOT = Path(__file__).resolve().parent.parent
PIPELINE_FILE = ROOT / "pipelines" / "shardy_full.yaml"

REFERENCE_CHAIN = (
    "builtin.module(inline, symbol-dce, sdy-lift-inlined-meshes, sdy-remove-size-one-axes,"
    " sdy-constant-or-scalar-splitter, sdy-manual-axes-cleanup, sdy-add-data-flow-edges,"
    " sdy-apply-sharding-constraints, sdy-sharding-group-import, sdy-user-priority-propagate,"
    " func.func(sdy-sink-data-flow-edges), sdy-remove-sharding-groups,"
    " func.func(sdy-sharding-constraint-to-reshard), sdy-update-non-divisible-input-output-shardings,"
    " sdy-close-shardings)"
)

MODULES = sorted(MODELS) + [p.name for p in sorted((ROOT / "examples").glob("*.mlir"))]


def _text(module: str) -> str:
    return (ROOT / "examples" / module).read_text() if module.endswith(".mlir") else lowered(module)


@pytest.mark.parametrize("module", MODULES)
def test_full_chain_matches_reference(module, tmp_path):
    text = _text(module)
    ok, expected = run_reference(text, REFERENCE_CHAIN)
    assert ok, "the reference rejected the input"
    path = tmp_path / "in.mlir"
    path.write_text(text)
    rc, out, err = run_sdy_dsl(["run", str(PIPELINE_FILE), str(path)])
    assert rc == 0, err
    assert out == expected
