"""The explain report scales (issue #23): each propagation edge is stored once
and the page builds a value's chain when it is shown; the chains it builds are
the ones `sdy-dsl explain` prints. The page has search, scrolls to the asked
value, shows mesh axis sizes, shapes and per-device shard shapes, the op of a
value (operands -> results) and "replicated" where a value has no sharding;
`sdy-dsl diff` and `sdy_dsl.explain`."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

import sdy_dsl
from lit_runner import run_sdy_dsl
from test_explain import find_chromium
from sdy_dsl.api import pipeline_of
from sdy_dsl.mlir_context import make_context
from sdy_dsl.passes import PassRegistry
from sdy_dsl.resources import DEFAULT_PIPELINE
from sdy_dsl.stories import ModuleStories, debug_options, parse_edges, report_data

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "examples" / "gpt2l_grad_2x4.mlir"  # reduce bodies: values in nested regions
FOCUS = "result[0][0]['w1']"


def _debug_output() -> str:
    registry = PassRegistry([])
    pipe = pipeline_of(DEFAULT_PIPELINE, registry)  # what `explain` runs
    return sdy_dsl.run_pipeline(MODEL, pipe, options=debug_options(pipe, registry), debuginfo=True,
                                source_name=str(MODEL)).text


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    report = tmp_path_factory.mktemp("report") / "r.html"
    rc, out, err = run_sdy_dsl(["explain", str(MODEL), FOCUS, "--report", str(report)])
    assert rc == 0, err
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    browser, chromedriver = find_chromium()
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.binary_location = browser
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.get(report.as_uri())
    yield driver, report, out
    driver.quit()


def test_page_chains_are_the_explained_chains(page):
    driver, _, _ = page
    with make_context():
        from jaxlib.mlir import ir
        stories = ModuleStories(ir.Module.parse(_debug_output()), str(MODEL))
        expected = {v["key"]: v["axes"] for f in report_data(stories)["funcs"] for v in f["values"]}
    built = driver.execute_script(
        "return Object.fromEntries(D.funcs.flatMap(f => f.rows).map(v => [keyOf(v), storyChains(v)]))")
    assert built == expected
    assert sum(len(a["chain"]) for axes in expected.values() for a in axes) > 100  # not vacuous


def test_each_edge_is_stored_once(page):
    _, report, _ = page
    data = json.loads(re.search(r"const D = (\{.*?\});\n", report.read_text(), re.S).group(1))
    with make_context():
        from jaxlib.mlir import ir
        module = ir.Module.parse(_debug_output())
        recorded = sum(len(parse_edges(str(op.attributes["sdy.propagation_edges"])))
                       for op in _walk(module.operation) if "sdy.propagation_edges" in op.attributes)
    assert sum(len(op[4]) for op in data["ops"] if len(op) > 4) == recorded > 100
    assert '"chain"' not in report.read_text()


def _walk(op):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation
                yield from _walk(child.operation)


def test_focus_is_shown_and_scrolled_to(page):
    from selenium.webdriver.common.by import By
    driver, _, out = page
    assert driver.find_element(By.ID, "detail-title").text == out.splitlines()[0].split("  ")[0]
    inside = driver.execute_script("""
        const r = document.querySelector("tr.selected").getBoundingClientRect();
        const box = document.getElementById("values").getBoundingClientRect();
        return r.top >= box.top && r.bottom <= box.bottom && document.getElementById("values").scrollTop > 0;""")
    assert inside


def test_mesh_sizes_shapes_per_device_and_op_view(page):
    from selenium.webdriver.common.by import By
    driver, _, _ = page
    assert driver.find_element(By.ID, "legend").text == "mesh @mesh: data=2 model=4"
    row = driver.find_element(By.CSS_SELECTOR, "tr.selected")
    cells = [td.text for td in row.find_elements(By.TAG_NAME, "td")]
    assert cells[2] == FOCUS and cells[3] == "128x512 f32"
    # Sharded along 'model' (4 devices) in dimension 1: each device holds 128x128.
    assert cells[5].replace("\n", " ") == '#sdy.sharding<@mesh, [{}, {"model"}]>' and cells[4] == "128x128"
    detail = driver.find_element(By.ID, "detail").text
    assert "shape: 128x512 f32; per device: 128x128" in detail and "returned value" in detail
    # A value's op: its operands, then its results, each with its sharding.
    driver.execute_script("show(D.ops.findIndex(o => S[o[0]] === 'stablehlo.dot_general') >= 0 ? "
                          "D.ops[D.ops.findIndex(o => S[o[0]] === 'stablehlo.dot_general')][3][0] : 0)")
    table = driver.find_element(By.ID, "opview").text.splitlines()
    assert table[0] == "operand shape per device sharding" and "result" in table[3]
    assert driver.find_element(By.CSS_SELECTOR, "#detail h3").text.startswith("op stablehlo.dot_general")


def test_replicated_is_written_where_there_is_no_sharding(page):
    driver, _, _ = page
    cells = driver.execute_script(
        "return rows.filter(r => V[+r.dataset.v].s === undefined).map(r => r.cells[5].textContent)")
    assert cells and set(cells) == {"replicated"}


def test_search_filters_and_enter_shows_the_first_match(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    driver, _, _ = page
    box = driver.find_element(By.ID, "search")
    box.send_keys("stablehlo.dot_general", Keys.ENTER)
    visible = [r for r in driver.find_elements(By.CSS_SELECTOR, "tr.value") if r.is_displayed()]
    assert len(visible) > 10 and all("stablehlo.dot_general" in r.text for r in visible)
    assert driver.find_element(By.ID, "count").text == f"{len(visible)} of " + driver.execute_script(
        "return String(rows.length)") + " values"
    assert driver.find_element(By.ID, "detail").text.split("\n")[1].startswith("stablehlo.dot_general")
    box.clear()
    box.send_keys(Keys.ENTER)


def test_python_explain(tmp_path):
    text = sdy_dsl.explain(MODEL, FOCUS, report=tmp_path / "r.html")
    rc, out, err = run_sdy_dsl(["explain", str(MODEL), FOCUS])
    assert rc == 0 and text + "\n" == out
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")


def test_diff_shows_where_two_runs_differ(tmp_path):
    module = ROOT / "examples" / "mlp_grad_2x4.mlir"
    untuned, tuned = tmp_path / "untuned.mlir", tmp_path / "tuned.mlir"
    assert run_sdy_dsl(["run", "shardy_full", str(module), "-o", str(untuned)])[0] == 0
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "op_sharding_rules.yaml").write_text(
        "stablehlo.dot_general: {builder: dot_general, blocked_propagation: [contracting]}\n")
    rc, _, err = run_sdy_dsl(["run", "shardy_full", str(module), "-o", str(tuned), "--rules", str(rules)])
    assert rc == 0, err
    rc, out, err = run_sdy_dsl(["diff", str(untuned), str(tuned), "--report", str(tmp_path / "d.html")])
    assert rc == 0, err
    lines = out.splitlines()
    assert re.fullmatch(rf"(\d+) of (\d+) values have different shardings \(A: {untuned}, B: {tuned}\)", lines[0])
    count = int(lines[0].split()[0])
    assert count > 0 and len(lines) == 1 + 3 * count
    assert lines[2].startswith("  A: ") and lines[3].startswith("  B: ") and lines[2][5:] != lines[3][5:]
    page = (tmp_path / "d.html").read_text()
    assert '"diff":[' in page and page.count('"x":1') == count
    rc, out, _ = run_sdy_dsl(["diff", str(untuned), str(untuned)])
    assert rc == 0 and out.startswith("no sharding differs between")


def test_values_of_sibling_regions_keep_distinct_keys():
    from jaxlib.mlir import ir
    from sdy_dsl.report import report_model
    text = textwrap.dedent("""\
        func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
          %c = stablehlo.constant dense<0.0> : tensor<f32>
          %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
          %1 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
          return %0, %1 : tensor<4xf32>, tensor<4xf32>
        }
        """)
    with make_context():
        model = report_model(ModuleStories(ir.Module.parse(text), "m.mlir"))
        ops = {key: model.strings[model.values[v]["w"]] for key, v in model.keys.items()}
    bodies = sorted(k for k in ops if ops[k] in ("stablehlo.add", "stablehlo.maximum"))
    assert len(bodies) == 2 and bodies[1] == bodies[0] + " #2"
    assert {ops[k] for k in bodies} == {"stablehlo.add", "stablehlo.maximum"}
