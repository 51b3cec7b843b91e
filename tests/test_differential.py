"""sdy-dsl and the C++ reference give identical output on the same inputs.

Inputs: every lit test file (with its own RUN line's passes), and the real
JAX modules of ../shared/corpus-like models (tests/models) through each pass.
"""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from lit_runner import run_lines, run_sdy_dsl
from reference import pipeline_from_flags, run_reference

LIT_DIR = Path(__file__).parent / "lit"


def _differential_cases():
    for path in sorted(LIT_DIR.rglob("*.mlir")):
        if path.relative_to(LIT_DIR).parts[0] == "mpmd":
            continue  # jaxlib registers no mpmd-* pass: those lit files are checked by their CHECK lines only
        for line in run_lines(path):
            first = shlex.split(line.split("|")[0])
            if "-verify-diagnostics" in first or "--verify-diagnostics" in first or first[0] == "not":
                continue
            flags = [a for a in first[2:] if a != "%s" and a.lstrip("-") != "split-input-file"]
            yield pytest.param(path, flags, "-split-input-file" in first or "--split-input-file" in first,
                               id=f"{path.relative_to(LIT_DIR)}:{' '.join(flags)}")


@pytest.mark.parametrize("path,flags,split", list(_differential_cases()))
def test_lit_input_matches_reference(path, flags, split):
    given = [f.split("=", 1)[1] for f in flags if f.startswith("--pass-pipeline=")]
    pipeline = given[0] if len(given) == 1 and len(flags) == 1 else pipeline_from_flags(flags)
    ok, expected = run_reference(path.read_text(), pipeline, split)
    assert ok, "the reference rejected the input"
    argv = ["opt", str(path), *flags] + (["-split-input-file"] if split else [])
    rc, out, err = run_sdy_dsl(argv)
    assert rc == 0, err
    assert out == expected
