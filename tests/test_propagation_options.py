"""Propagation pass options that do not change the output module."""
from __future__ import annotations

from pathlib import Path

from lit_runner import run_sdy_dsl

ROOT = Path(__file__).resolve().parent.parent


def test_module_dump_directory_holds_the_module_before_and_after(tmp_path):
    example = ROOT / "examples" / "mlp_grad_2x4.mlir"
    dump = tmp_path / "dump"
    rc, before, err = run_sdy_dsl(["opt", str(example)])
    assert rc == 0, err
    rc, after, err = run_sdy_dsl(["opt", str(example), f"-sdy-basic-propagate=module-dump-directory={dump}"])
    assert rc == 0, err
    assert before != after
    assert (dump / "sdy_module_before_propagation.mlir").read_text().strip() == before.strip()
    assert (dump / "sdy_module_after_propagation.mlir").read_text().strip() == after.strip()
