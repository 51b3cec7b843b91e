"""`explain --report` marks where communication happens: each collective the
cost analysis finds (explicit reshards + reshard-to-collectives, sdy_dsl/cost.py)
is on the row of the value it is placed at (sdy_dsl/report_comm.py), and each
function has a summary."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sdy_dsl.resources import DEFAULT_PIPELINE
from sdy_dsl.cost import cost
from lit_runner import run_sdy_dsl
from test_explain import find_chromium

ROOT = Path(__file__).resolve().parent.parent

# Mesh x=2, y=4. The dot contracts over k (16), sharded "x" on both operands;
# %arg2 brings "y" to the add and, backwards, to the dot's result (dim 1);
# the function result is replicated.
MODULE = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %b: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %c: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.add %0, %c : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
"""

EXPECTED = {
    # The dot's result is sharded "y" on dim 1, so %arg1 (b) must be too: a
    # local slice of each device's [{"x"}, {}] shard, which moves 0 bytes.
    "%0": [["all_slice", '[{}, {"y"}]', "tensor<16x32xf32>", '#sdy.sharding<@mesh, [{"x"}, {"y"}]>', 0,
            "before operand 1 of stablehlo.dot_general"],
           # k is sharded "x": each device holds a partial sum of its 8x(32/4)
           # block of the result: 8*8 f32 = 256 bytes reduced over "x".
           ["all_reduce", '{"x"}', "tensor<8x32xf32>", '#sdy.sharding<@mesh, [{}, {"y"}]>', 256,
            "reduces result 0 of stablehlo.dot_general"]],
    # The add's [{}, {"y"}] result is returned replicated: all-gather over
    # "y" into the whole 8x32 f32 tensor, 1024 bytes per device.
    "result 0": [["all_gather", '[{}, {"y"}]', "tensor<8x32xf32>", '#sdy.sharding<@mesh, [{}, {}]>', 1024,
                  "before function result 0"]],
}
SUMMARY = "communication (bytes per device): all_gather 1 (1024 B), all_reduce 1 (256 B), all_slice 1 (0 B)"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("comm")
    (tmp / "m.mlir").write_text(MODULE)
    rc, _, err = run_sdy_dsl(["explain", str(tmp / "m.mlir"), "main:result 0", "--report", str(tmp / "r.html")])
    assert rc == 0, err
    return tmp / "r.html"


def _data(report) -> dict:
    return json.loads(re.search(r"const D = (\{.*?\});\n", report.read_text(), re.S).group(1))


def test_each_collective_is_on_the_row_it_is_placed_at(report):
    data = _data(report)
    assert data["comm_error"] == ""
    placed = {v["n"]: [data["comm"][i][:6] for i in v["c"]] for v in data["values"] if "c" in v}
    assert placed == EXPECTED
    assert all(c[6] >= 0 for c in data["comm"])  # every one placed


def test_function_summary_totals(report):
    (func,) = _data(report)["funcs"]
    assert func["comm"] == {"all_slice": [1, 0], "all_reduce": [1, 256], "all_gather": [1, 1024]}


def test_page_shows_the_markers_and_the_summary(report):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    browser, chromedriver = find_chromium()
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.binary_location = browser
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        driver.get(report.as_uri())
        assert driver.find_element("css selector", "p.commsum").text == SUMMARY
        cells = {r.find_element("css selector", "td").text: r.find_element("css selector", "td.comm").text
                 for r in driver.find_elements("css selector", "tr.value")}
        assert cells["%0"] == '\u21c4 all_slice [{}, {"y"}]: 0 B\n\u21c4 all_reduce {"x"}: 256 B'
        assert cells["result 0"] == '\u21c4 all_gather [{}, {"y"}]: 1024 B'
        assert cells["%1"] == cells["%arg1"] == ""
        driver.execute_script("show(arguments[0])", next(i for i, v in enumerate(_data(report)["values"])
                                                           if v["n"] == "%0"))
        detail = driver.find_element("id", "detail").text
        assert 'all_reduce {"x"} reduces result 0 of stablehlo.dot_general: tensor<8x32xf32> to ' \
               '#sdy.sharding<@mesh, [{}, {"y"}]>, 256 bytes per device' in detail
    finally:
        driver.quit()


def test_report_totals_are_sdy_dsl_costs_on_a_train_step(tmp_path):
    """On a 2-layer GPT gradient (examples/): the page places every collective
    at an op, and its per-function totals are `sdy_dsl.cost`'s (both on the
    pipeline XLA runs)."""
    model = ROOT / "examples" / "gpt2l_grad_2x4.mlir"
    rc, _, err = run_sdy_dsl(["explain", str(model), "main:arg 0", "--pipeline", "sdy-propagation-pipeline",
                              "--report", str(tmp_path / "r.html")])
    assert rc == 0, err
    data = _data(tmp_path / "r.html")
    assert data["comm"] and all(c[6] >= 0 for c in data["comm"])
    expected = {"@" + f.name: {k: [v["count"], v["bytes"]] for k, v in f.totals().items()}
                for f in cost(model, DEFAULT_PIPELINE).functions}  # what explain runs
    assert {f["name"]: f.get("comm", {}) for f in data["funcs"]} == expected
    assert expected["@main"]["all_gather"][0] > 10


def test_a_module_the_cost_steps_reject_gives_the_reason_not_a_traceback():
    from sdy_dsl.report_comm import communication
    result = communication("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> { return %b : tensor<4xf32> }")
    assert result.placed == []
    assert result.error == "<python>:1:62: error: use of undeclared SSA value name"
