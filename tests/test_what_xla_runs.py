"""Issue #31: what XLA runs, by default, and the small habits around it.

Every JAX program has calls (`relu`, a nested `jax.jit`), which `shardy_full`
(the seed chain) leaves opaque; explain, run_pipeline and the pytest plugin
run `sdy-propagation-pipeline` when no pipeline is named, and explain follows a
value through the calls. The programs are tests/data/jax_calls/*.mlir
(`jax.nn.relu(x @ w1) @ w2` and a nested `jax.jit` on a 2x4 Auto mesh, written
by tests/data/jax_calls/generate.py); expected shardings are the reference's.
"""
from __future__ import annotations

import functools
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


@functools.cache
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
    # Its `inline` keeps `call @relu`, and the file says why: so does the reference's.
    text = (ROOT / "pipelines" / "shardy_full.yaml").read_text()
    assert "`inline` leaves `func.call`s in place" in text
    ok, out = run_reference(RELU.read_text(), "builtin.module(inline)")
    assert ok and "call @relu(" in out


# --------------------------------------------------------------------------- small habits


@pytest.mark.parametrize("command", ["opt", "run", "explain", "diff", "passes", "pipelines", "cost", "builders",
                                     "search"])
def test_every_sub_command_has_help(command):
    # (cost and search parse their own arguments and return 0 after their help; the others exit 0)
    try:
        rc, out, err = run_sdy_dsl([command, "--help"])
    except SystemExit as e:
        from test_cli_first_hour import _help
        assert e.code == 0
        out, rc, err = _help([command, "--help"]), 0, ""
    assert rc == 0 and err == ""
    assert out.startswith(f"usage:\n  sdy-dsl {command}")


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


# --------------------------------------------------------------------------- explain through calls


def func_sharding(text: str, func: str, kind: str) -> str:
    """The `sdy.sharding` of FUNC's first argument ("arg") or result ("result") in TEXT."""
    head = next(line for line in text.splitlines() if f"@{func}(" in line and "func.func" in line)
    args, results = head.split("->", 1)
    return re.search(r"sdy\.sharding = (#sdy\.sharding<[^>]*>)", args if kind == "arg" else results).group(1)


def hops(out: str, axis: str) -> list[str]:
    """The chain lines of AXIS in explain's output, without locations."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  axis {axis}: "))
    chain = []
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        chain.append(re.sub(r"  \([^()]*:\d+:\d+\)$", "", line.strip()))
    return chain


def test_explain_follows_the_result_through_the_relu_call():
    """Into @relu by its argument, out by its result: no gap at the call."""
    rc, out, err = run_sdy_dsl(["explain", str(RELU), "result"])
    assert rc == 0, err
    assert out.splitlines()[2] == ('  axis data: from argument 0 of @main (JAX name \'x\'), a user sharding  '
                                   '[origin "input: 0"]')
    assert hops(out, "data") == [
        "step 0: %0 = stablehlo.dot_general: operand-0 (%arg0) -> result-0 (%0)",
        "call: %1 = call @relu: operand-0 (%0) -> argument 0 of @relu (%arg0)",
        "step 2: @relu %2 = stablehlo.maximum: operand-0 (%arg0) -> result-0 (%2)",
        "call: %1 = call @relu: result 0 of @relu (%2) -> result-0 (%1)",
        "step 4: %2 = stablehlo.dot_general: operand-0 (%1) -> result-0 (%2)",
        "step 5: return: operand-0 (returned value) -> result-0 (function result)"]


def test_explain_a_callee_argument():
    """`relu:arg 0` has the reference's sharding, and each axis the story of the call's operand."""
    rc, out, err = run_sdy_dsl(["explain", str(RELU), "relu:arg 0"])
    assert rc == 0, err
    assert out.splitlines()[1] == f"  sharding: {func_sharding(reference_output(RELU), 'relu', 'arg')}"
    assert "  axis data: from argument 0 of @main (JAX name 'x'), a user sharding" in out
    assert "  axis model: from argument 1 of @main (JAX name 'w1'), a user sharding" in out
    assert hops(out, "model") == [
        "step 0: @main %0 = stablehlo.dot_general: operand-1 (%arg1) -> result-0 (%0)",
        "call: @main %1 = call @relu: operand-0 (%0) -> argument 0 of @relu (%arg0)"]
    assert "no axis has a recorded origin" not in out


def test_explain_follows_nested_jit_calls():
    rc, out, err = run_sdy_dsl(["explain", str(NESTED), "result"])
    assert rc == 0, err
    assert out.splitlines()[1] == f"  sharding: {main_result_sharding(reference_output(NESTED))}"
    chain = hops(out, "data")
    assert chain[0] == "call: %0 = call @layer: operand-0 (%arg0) -> argument 0 of @layer (%arg0)"
    assert "call: %0 = call @layer: result 0 of @layer (%1) -> result-0 (%0)" in chain
    assert "call: %1 = call @layer_0: operand-0 (%0) -> argument 0 of @layer_0 (%arg0)" in chain
    assert chain[-1].startswith("step ") and chain[-1].endswith("-> result-0 (function result)")
    steps = [int(line.split()[1].rstrip(":")) for line in chain if line.startswith("step ")]
    assert steps == sorted(steps) and len(steps) >= 5


def test_a_registry_warning_does_not_turn_the_steps_off():
    """chlo.square draws Shardy's unknown-op warning; the steps are still recorded."""
    path = DATA / "relu_square.mlir"
    warnings = sdy_dsl.run_pipeline(path).warnings
    assert len(warnings) == 1 and "op 'chlo.square' is unknown to SDY sharding rule registry" in warnings[0]
    rc, out, err = run_sdy_dsl(["explain", str(path), "result[0]"])
    assert rc == 0, err
    assert "note:" not in out
    assert hops(out, "data")[0].startswith("step 0: %0 = stablehlo.dot_general")


def test_a_scan_stops_the_chain_not_the_steps_and_the_note_names_the_error():
    """Through a scan's while loop the steps cannot be recorded (the reference's verifier rejects
    them too, test_explain.py); the steps after it still are, and the note quotes that error,
    not the chlo.square warning before it."""
    path = DATA / "scan_square.mlir"
    rc, out, err = run_sdy_dsl(["explain", str(path), "main:result 0"])
    assert rc == 0, err
    assert out.splitlines()[1] == f"  sharding: {main_result_sharding(reference_output(path))}"
    chain = hops(out, "data")
    assert chain[0].startswith("step ") and "stablehlo.multiply" in chain[0]
    assert chain[-1].endswith("-> result-0 (function result)")
    note = out.splitlines()[-1]
    assert note.startswith("note: the propagation steps through some data-flow edges (a while loop's")
    assert ": error: 'sdy.data_flow_edge' op expected a value ref" in note and "chlo.square" not in note


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from test_explain import find_chromium
    path, chromedriver = find_chromium()
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900",
                "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.binary_location = path
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    yield driver
    driver.quit()


LONG_NAME = "result[0]['model']['decoder']['layers']['self_attention']['out']['kernel']"


@pytest.mark.parametrize("path", [RELU, NESTED], ids=["relu", "nested_jit"])
def test_report_chains_go_through_calls_as_explain_does(browser, tmp_path, path):
    from jaxlib.mlir import ir
    from sdy_dsl.api import pipeline_of
    from sdy_dsl.mlir_context import make_context
    from sdy_dsl.passes import PassRegistry
    from sdy_dsl.stories import ModuleStories, debug_options, report_data
    module = tmp_path / path.name
    module.write_text(path.read_text().replace('jax.result_info = "result"', f'jax.result_info = "{LONG_NAME}"'))
    report = tmp_path / "r.html"
    rc, _, err = run_sdy_dsl(["explain", str(module), LONG_NAME, "--report", str(report)])
    assert rc == 0, err
    registry = PassRegistry([])
    pipe = pipeline_of("sdy-propagation-pipeline", registry)
    text = sdy_dsl.run_pipeline(module, pipe, options=debug_options(pipe, registry), debuginfo=True).text
    with make_context():
        stories = ModuleStories(ir.Module.parse(text), str(module))
        expected = {v["key"]: v["axes"] for f in report_data(stories)["funcs"] for v in f["values"]}
    browser.get(report.as_uri())
    built = browser.execute_script(
        "return Object.fromEntries(D.funcs.flatMap(f => f.rows).map(v => [keyOf(v), storyChains(v)]))")
    assert built == expected
    assert sum(hop["step"] is None for axes in expected.values() for a in axes for hop in a["chain"]) >= 4
    # The long JAX name stays in its column: cut with an ellipsis, whole on hover.
    cell = browser.execute_script(
        "const td = [...document.querySelectorAll('tr.value td')].find(td => td.title === arguments[0]);"
        "const s = getComputedStyle(td);"
        "return [td.scrollWidth > td.clientWidth, s.overflow, s.textOverflow, s.whiteSpace];", LONG_NAME)
    assert cell == [True, "hidden", "ellipsis", "nowrap"]


# --------------------------------------------------------------------------- diff


def test_diff_pairs_values_by_what_they_are(tmp_path):
    """A pass inserts an all-reduce inside @layer_0: diff lists it as inserted and
    compares the tanh after it with the tanh, not with the value that took its number."""
    before, after = tmp_path / "before.mlir", tmp_path / "after.mlir"
    before.write_text(reference_output(NESTED))
    ok, text = run_reference(before.read_text(),
                             "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))")
    assert ok
    after.write_text(text)
    all_reduce = re.search(r'sdy\.all_reduce \{"model"\} %0 out_sharding=<(@mesh, [^>]*)>', text).group(1)
    rc, out, err = run_sdy_dsl(["diff", str(before), str(after), "--report", str(tmp_path / "d.html")])
    assert rc == 0, err
    assert out == (f"0 of 18 values have different shardings (A: {before}, B: {after}); "
                   f"1 values only in B (inserted), 0 only in A (removed)\n"
                   f"@layer_0 %1 = sdy.all_reduce  (only in B: inserted)\n"
                   f"  A: -\n"
                   f"  B: #sdy.sharding<{all_reduce}>\n")
    assert '"x":1' not in (tmp_path / "d.html").read_text()  # every value of A has its counterpart's sharding
    rc, out, err = run_sdy_dsl(["diff", str(after), str(before)])
    assert rc == 0, err
    assert out.splitlines()[1:] == ["@layer_0 %1 = sdy.all_reduce  (only in A: removed)",
                                    f"  A: #sdy.sharding<{all_reduce}>", "  B: -"]


def test_a_callee_the_seed_chain_left_unsharded_borrows_no_origins():
    """Through shardy_full `call @relu` stays opaque: @relu's argument has no sharding,
    so it has no story, whatever the call's operand has."""
    rc, out, err = run_sdy_dsl(["explain", str(RELU), "relu:arg 0", "--pipeline", "shardy_full"])
    assert rc == 0, err
    assert out.splitlines()[1:] == ["  sharding: (none)", "  no axis has a recorded origin (replicated, or set "
                                    "before the pipeline's propagation)"]
