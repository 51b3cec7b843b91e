"""What XLA runs, `sdy-propagation-pipeline` (with and without
`dedup-functions-fully`), and the seed chain (pipelines/shardy_full.yaml, and
with explicit reshards pipelines/shardy_full_reshards.yaml) on real modules:
every JAX model of the zoo (MLP, GPT with/without scan, TP/FSDP, convnet,
mixture-of-experts with top_k, shard_map, while/cond, shard_alike, user
priorities, nested jits, a jit in a scan body, host computations, complex
constants, ...) and every bundled example. sdy-dsl's output must equal the
C++ reference's output of the same pipeline; the seed chain is written out
here independently of its pipeline file.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from models.zoo import MODELS, lowered
from reference import run_reference

ROOT = Path(__file__).resolve().parent.parent
PIPELINE_FILE = ROOT / "pipelines" / "shardy_full.yaml"
RESHARDS_PIPELINE_FILE = ROOT / "pipelines" / "shardy_full_reshards.yaml"

REFERENCE_CHAIN = (
    "builtin.module(inline, symbol-dce, sdy-lift-inlined-meshes, sdy-remove-size-one-axes,"
    " sdy-constant-or-scalar-splitter, sdy-manual-axes-cleanup, sdy-add-data-flow-edges,"
    " sdy-apply-sharding-constraints, sdy-sharding-group-import, sdy-user-priority-propagate,"
    " func.func(sdy-sink-data-flow-edges), sdy-remove-sharding-groups,"
    " func.func(sdy-sharding-constraint-to-reshard), sdy-update-non-divisible-input-output-shardings,"
    " sdy-close-shardings)"
)
# The seed chain with explicit reshards (pipelines/shardy_full_reshards.yaml).
RESHARDS_CHAIN = (REFERENCE_CHAIN[:-1] + ", func.func(sdy-insert-explicit-reshards),"
                  " func.func(sdy-drop-sharding-rules), sdy-inline-meshes)")

MODULES = sorted(MODELS) + [p.name for p in sorted((ROOT / "examples").glob("*.mlir"))]


def _text(module: str) -> str:
    return (ROOT / "examples" / module).read_text() if module.endswith(".mlir") else lowered(module)


@pytest.mark.parametrize("options", ["", "dedup-functions-fully=true"], ids=["default", "dedup"])
@pytest.mark.parametrize("module", MODULES)
def test_propagation_pipeline_matches_reference(module, options, tmp_path):
    """`sdy-dsl opt M -sdy-propagation-pipeline[=OPTIONS]` is byte-identical to the reference's."""
    text = _text(module)
    element = f"sdy-propagation-pipeline{{{options}}}" if options else "sdy-propagation-pipeline"
    ok, expected = run_reference(text, f"builtin.module({element})")
    assert ok, "the reference rejected the input"
    path = tmp_path / "in.mlir"
    path.write_text(text)
    rc, out, err = run_sdy_dsl(["opt", str(path), "-sdy-propagation-pipeline" + (f"={options}" if options else "")])
    assert rc == 0, err
    assert out == expected


@pytest.mark.parametrize("pipeline_file,chain", [(PIPELINE_FILE, REFERENCE_CHAIN),
                                                 (RESHARDS_PIPELINE_FILE, RESHARDS_CHAIN)],
                         ids=["full", "full+reshards"])
@pytest.mark.parametrize("module", MODULES)
def test_full_chain_matches_reference(module, pipeline_file, chain, tmp_path):
    text = _text(module)
    ok, expected = run_reference(text, chain)
    assert ok, "the reference rejected the input"
    path = tmp_path / "in.mlir"
    path.write_text(text)
    rc, out, err = run_sdy_dsl(["run", str(pipeline_file), str(path)])
    assert rc == 0, err
    assert out == expected


@pytest.mark.parametrize("module", MODULES)
def test_explicit_reshards_full_version_matches_reference(module, tmp_path):
    """sdy-insert-explicit-reshards with enable-full-version=true (every op
    resolved, returns resharded) on each real module after the full chain."""
    ok, propagated = run_reference(_text(module), REFERENCE_CHAIN)
    assert ok, "the reference rejected the input"
    step = "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
    ok, expected = run_reference(propagated, step)
    assert ok, "the reference rejected the propagated module"
    path = tmp_path / "in.mlir"
    path.write_text(propagated)
    rc, out, err = run_sdy_dsl(["opt", str(path), f"--pass-pipeline={step}"])
    assert rc == 0, err
    assert out == expected
