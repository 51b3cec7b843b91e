"""pipelines/mpmd_export.yaml on a multi-mesh MPMD module: the pipeline file runs
the seven MPMD export passes without error, and its output is the one the lit
case tests/lit/mpmd/export_pipeline.mlir checks (that case's RUN line names
the same passes one by one; the module and its provenance are described there).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from lit_runner import filecheck_path, run_sdy_dsl

ROOT = Path(__file__).resolve().parent.parent
PIPELINE_FILE = ROOT / "pipelines" / "mpmd_export.yaml"
MODULE = ROOT / "tests" / "lit" / "mpmd" / "export_pipeline.mlir"


def test_mpmd_export_pipeline_file_on_a_multi_mesh_module():
    rc, out, err = run_sdy_dsl(["run", str(PIPELINE_FILE), str(MODULE)])
    assert rc == 0, err
    assert err == ""
    check = subprocess.run([filecheck_path(), str(MODULE)], input=out, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
