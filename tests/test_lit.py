"""Every lit-style test file under tests/lit passes with sdy-dsl."""
from pathlib import Path

import pytest

from lit_runner import run_file, run_lines

LIT_DIR = Path(__file__).parent / "lit"
LIT_FILES = sorted(LIT_DIR.rglob("*.mlir"))


@pytest.mark.parametrize("path", LIT_FILES, ids=[str(p.relative_to(LIT_DIR)) for p in LIT_FILES])
def test_lit_file(path):
    assert run_lines(path), f"{path} has no RUN line"
    failures = [r.message for r in run_file(path) if not r.ok]
    assert not failures, "\n".join(failures)
