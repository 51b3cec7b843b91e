"""The command line as a new user first meets it (issue #23): `python -m
sdy_dsl`, per-sub-command help, "did you mean", --only-rules, explain's
--progress/--timing, --rule-stats sorted and as JSON, MLIR's common flags."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl import cli

ROOT = Path(__file__).resolve().parent.parent
MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) -> tensor<8xf32> {
      %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
      %0 = stablehlo.add %arg0, %c : tensor<8xf32>
      return %0 : tensor<8xf32>
    }
    """)


@pytest.fixture
def module(tmp_path) -> Path:
    path = tmp_path / "m.mlir"
    path.write_text(MODULE)
    return path


def test_python_dash_m():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "sdy_dsl", "--version"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stdout.startswith("sdy-dsl "), proc.stderr


def _help(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 0
    return out.getvalue()


def test_sub_command_help_is_that_sub_command_s():
    text = _help(["opt", "--help"])
    assert text.startswith("usage:\n  sdy-dsl opt INPUT.mlir")
    assert "sdy-dsl run " not in text and "--report" not in text and "--pass-pipeline PIPELINE" in text
    assert _help(["help", "explain"]).startswith("usage:\n  sdy-dsl explain INPUT.mlir VALUE")
    assert "sub-commands ('sdy-dsl COMMAND --help' for one):" in _help(["--help"])


@pytest.mark.parametrize("argv, message", [
    (["opt", "M", "-sdy-basic-propgate"], "unknown pass 'sdy-basic-propgate'; did you mean 'sdy-basic-propagate'?"),
    (["opt", "M", "-canonicalise"], "unknown option or pass '-canonicalise'; did you mean 'canonicalize'?"),
    (["opt", "M", "-sdy-basic-propagate=conservative-propagaton=true"],
     "has no option 'conservative-propagaton'; did you mean 'conservative-propagation'?"),
    (["run", "shardy_full", "M", "--disable-rule", "close-and-drop-replicate"],
     "sdy-dsl: error: --disable-rule: no rule 'close-and-drop-replicate' in the pipeline's passes; "
     "did you mean 'close-and-drop-replicated'?\n"),
    (["run", "shardy_full", "M", "--trcae"], "unknown option '--trcae'; did you mean '--trace'?"),
    (["passes", "sdy-close-sharding"], "unknown pass 'sdy-close-sharding'; did you mean 'sdy-close-shardings'?"),
    (["opt", "M", "-sdy-close-shardings", "--only-rules", "RULES"],
     "pass 'sdy-close-shardings' is built in, and --only-rules leaves the built-in passes out"),
    (["opt", "M", "--mlir-pass-statistics"], "MLIR option '--mlir-pass-statistics' is not supported by sdy-dsl: "
     "rule passes have no MLIR pass statistics; --rule-stats counts each rule"),
    (["opt", "M", "--mlir-print-value-users"], "MLIR option '--mlir-print-value-users' is not supported by "
     "sdy-dsl: no equivalent in sdy-dsl"),
    (["opt", "M", "-sdy-close-shardings", "--mlir-disable-threading=false"], "option "
     "'--mlir-disable-threading=false': sdy-dsl runs its passes on one thread (it cannot be turned off)"),
    (["opt", "M", "-sdy-close-shardings", "--rule-stats-sort", "fires"], "--rule-stats-sort: no column 'fires'; "
     "did you mean 'fired'?"),
])
def test_mistakes_get_a_suggestion_or_a_reason(module, tmp_path, argv, message):
    (tmp_path / "rules").mkdir()
    argv = [str(module) if a == "M" else str(tmp_path / "rules") if a == "RULES" else a for a in argv]
    rc, _, err = run_sdy_dsl(argv)
    assert rc == 1 and message in err, err
    assert err.count("\n") == 1  # one line, no list of every rule id


def test_explain_takes_progress_and_timing(module):
    rc, out, err = run_sdy_dsl(["explain", str(module), "%0", "--progress", "--timing"])
    assert rc == 0, err
    assert "[1/" in err and "] symbol-dce ..." in err  # sdy-propagation-pipeline, the default
    assert "timing: sdy-user-priority-propagate: " in err and "timing: total: " in err


def test_rule_stats_aligned_sorted_and_json(module):
    rc, _, err = run_sdy_dsl(["run", "shardy_full", str(module), "--rule-stats", "--rule-stats-sort", "attempts"])
    assert rc == 0, err
    lines = err.splitlines()
    assert lines[0].startswith("rule ")
    ends = {line.index(" ", len(line.split()[0])) for line in lines}
    assert len({len(line) for line in lines}) == 1 and len(ends) <= len(lines)  # fixed-width columns
    attempts = [int(line.split()[1]) for line in lines[1:]]
    assert attempts == sorted(attempts, reverse=True) and len(attempts) > 3
    rc, _, err = run_sdy_dsl(["run", "shardy_full", str(module), "--rule-stats", "--json"])
    rows = json.loads(err)
    assert rc == 0 and {"rule", "attempts", "matches", "fired", "noop", "ms"} == set(rows[0])
    assert any(r["rule"] == "sdy-close-shardings/close-and-drop-replicated" and r["fired"] > 0 for r in rows)


def test_mlir_printer_flags(module):
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-close-shardings", "--mlir-print-op-generic"])
    assert rc == 0 and out.startswith('"builtin.module"() ({\n  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>'), err
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-close-shardings", "--mlir-elide-elementsattrs-if-larger=4"])
    assert rc == 0 and "stablehlo.constant dense_resource<__elided__> : tensor<8xf32>" in out, err


def test_print_ir_after_change_and_accepted_flags(module):
    rc, _, err = run_sdy_dsl(["opt", str(module), "-sdy-close-shardings", "-sdy-close-shardings",
                              "--mlir-print-ir-after-change", "-verify-each", "--mlir-disable-threading"])
    assert rc == 0, err
    assert err.count("// -----// IR Dump After sdy-close-shardings //----- //") == 1  # the second changed nothing


BREAKING_PASS = """\
pass: give-adds-a-string-sharding
summary: Sets sdy.sharding on every add to a string, which the verifier refuses.
driver: {kind: walk}
rules:
  - id: string-sharding
    match: "$op = stablehlo.add"
    rewrite:
      - set_attr($op, "sdy.sharding", "not a sharding")
"""


@pytest.mark.parametrize("verify_each, note", [
    (False, "note: the module does not verify after the last pass ('sdy-close-shardings'); "
            "-verify-each finds the pass that broke it"),
    (True, "note: pass 'give-adds-a-string-sharding' produced this invalid IR"),
])
def test_invalid_ir_is_found_at_the_end_or_after_each_pass(module, tmp_path, verify_each, note):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "break.yaml").write_text(BREAKING_PASS)
    out_file = tmp_path / "out.mlir"
    argv = ["opt", str(module), "--rules", str(tmp_path / "rules"), "-give-adds-a-string-sharding",
            "-sdy-close-shardings", "-o", str(out_file)] + (["-verify-each"] if verify_each else [])
    rc, _, err = run_sdy_dsl(argv)
    assert rc == 1 and not out_file.exists()
    assert f"m.mlir:4:8: error: 'stablehlo.add' op should have a sharding attribute" in err, err
    assert note in err, err
