"""Issue #31: what XLA runs, by default, and the small habits around it.

Every JAX program has calls (`relu`, a nested `jax.jit`), which `shardy_full`
(the seed chain) leaves opaque; explain, run_pipeline and the pytest plugin
run `sdy-propagation-pipeline` when no pipeline is named, and explain follows a
value through the calls. The programs are tests/data/jax_calls/*.mlir
(`jax.nn.relu(x @ w1) @ w2` and a nested `jax.jit` on a 2x4 Auto mesh, written
by tests/data/jax_calls/generate.py); expected shardings are the reference's.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import sdy_dsl
from lit_runner import run_sdy_dsl
from reference import run_reference

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "jax_calls"
RELU = DATA / "relu_mlp.mlir"
NESTED = DATA / "nested_jit.mlir"
PIPELINE = "builtin.module(sdy-propagation-pipeline)"


def reference_output(path: Path) -> str:
    ok, out = run_reference(path.read_text(), PIPELINE)
    assert ok, out
    return out


def main_result_sharding(text: str) -> str:
    """The `sdy.sharding` of @main's (only) result in TEXT."""
    head = next(line for line in text.splitlines() if "func.func public @main" in line)
    results = head.split("->", 1)[1]
    return re.search(r"sdy\.sharding = (#sdy\.sharding<[^>]*>)", results).group(1)


# --------------------------------------------------------------------------- defaults


@pytest.mark.parametrize("path", [RELU, NESTED], ids=["relu", "nested_jit"])
def test_run_pipeline_runs_what_xla_runs_by_default(path):
    assert sdy_dsl.run_pipeline(path).text == reference_output(path)


def test_explain_runs_what_xla_runs_by_default():
    """The result of the relu MLP is sharded on "data" through the pipeline
    (the seed chain, which stops at `call @relu`, leaves it unsharded)."""
    expected = main_result_sharding(reference_output(RELU))
    assert expected == '#sdy.sharding<@mesh, [{"data"}, {}]>'
    rc, out, err = run_sdy_dsl(["explain", str(RELU), "result"])
    assert rc == 0, err
    assert f"  sharding: {expected}\n" in out
    assert f"  sharding: {expected}\n" in sdy_dsl.explain(RELU, "result") + "\n"


def test_pytest_plugin_snapshots_what_xla_runs_by_default(tmp_path):
    from test_pytest_plugin import run_pytest
    (tmp_path / "my_rules").mkdir()
    (tmp_path / "test_user.py").write_text(textwrap.dedent(f'''\
        def test_relu(sdy_dsl_snapshot):
            sdy_dsl_snapshot({str(RELU)!r})
        '''))
    proc = run_pytest(tmp_path, "--snapshot-update")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (snapshot,) = (tmp_path / "__snapshots__").rglob("*.mlir")
    assert snapshot.read_text() == reference_output(RELU)


def test_the_seed_chain_says_what_it_is():
    """`sdy-dsl pipelines` lists every shipped pipeline on a line; shardy_full
    is described as the seed chain that leaves calls opaque."""
    rc, out, err = run_sdy_dsl(["pipelines"])
    assert rc == 0, err
    lines = out.splitlines()
    assert len(lines) == len(list((ROOT / "pipelines").glob("*.yaml")))
    by_name = {line.split()[0]: line for line in lines}
    assert "sdy-propagation-pipeline" in by_name and "shardy_full_reshards" in by_name
    assert "without the call graph" in by_name["shardy_full"]
    assert "sdy-propagation-pipeline" in by_name["shardy_full"]
    rc, out, err = run_sdy_dsl(["passes", "shardy_full"])
    assert rc == 0, err
    assert out.startswith("shardy_full  (pipeline)\n") and "passes: inline, symbol-dce," in out
    text = (ROOT / "pipelines" / "shardy_full.yaml").read_text()
    assert "`inline` leaves `func.call`s in place" in text


def test_inline_leaves_calls_in_the_reference_too():
    """What the seed pipeline's comment on `inline` says: the reference's `inline` keeps `call @relu`."""
    ok, out = run_reference(RELU.read_text(), "builtin.module(inline)")
    assert ok and "call @relu(" in out


# --------------------------------------------------------------------------- small habits


@pytest.mark.parametrize("command", ["opt", "run", "explain", "diff", "passes", "pipelines", "cost", "builders"])
def test_every_sub_command_has_help(command):
    from test_cli_first_hour import _help
    assert _help([command, "--help"]).startswith(f"usage:\n  sdy-dsl {command}")


@pytest.mark.parametrize("argv", [
    ["opt", str(RELU), "-sdy-propogation-pipeline"],
    ["passes", "sdy-propogation-pipeline"],
    ["opt", str(RELU), "--pass-pipeline=builtin.module(sdy-propogation-pipeline)"],
], ids=["opt", "passes", "pass-pipeline"])
def test_a_misspelled_pipeline_suggests_the_pipeline(argv):
    rc, _, err = run_sdy_dsl(argv)
    assert rc == 1
    assert "unknown pass 'sdy-propogation-pipeline'; did you mean 'sdy-propagation-pipeline'?" in err


def test_a_misspelled_shipped_pipeline_name_suggests_it():
    rc, _, err = run_sdy_dsl(["run", "shardy_fll", str(RELU)])
    assert rc == 1
    assert "no shipped pipeline of that name; did you mean 'shardy_full'?" in err


def test_run_pipeline_on_a_missing_file_says_so():
    with pytest.raises(sdy_dsl.SdyDslError, match=r"cannot open input file 'no_such\.mlir': No such file"):
        sdy_dsl.run_pipeline("no_such.mlir", "shardy_full")


@pytest.mark.parametrize("body, column, message", [
    ("options:\n  5: {type: bool, default: false}", 3, "option name 5 must be a word"),
    ("options:\n  my opt: {type: bool, default: false}", 3, "option name 'my opt' must be a word"),
    ("params:\n  5: 1", 3, "'params': param name 5 must be a string"),
], ids=["int-option", "spaced-option", "int-param"])
def test_a_rule_file_key_that_is_no_name_is_located(tmp_path, body, column, message):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "p.yaml").write_text(f"pass: my-pass\nsummary: x\n{body}\nrules: []\n")
    rc, _, err = run_sdy_dsl(["opt", str(RELU), "-my-pass", "--rules", str(rules)])
    assert rc == 1
    assert err.startswith(f"{rules / 'p.yaml'}:4:{column}: error: {message}")
