"""`sdy-dsl search` (sdy_dsl/search.py): the space file's errors, the ranking on a
JAX train step where the default pipeline is not the cheapest point, the
written best files reproducing the reported cost, resuming a killed search
from its cache, a failing point, and the report files."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl.cost import cost
from sdy_dsl.errors import SdyDslError
from sdy_dsl.search import search
from sdy_dsl.search_space import load_space

ROOT = Path(__file__).resolve().parent.parent
STRATEGY = "sdy-user-priority-propagate.propagation-strategy"
RANKING = "sdy-insert-explicit-reshards.candidate-ranking"
DEFAULT_RANKING = ["source-tensor-size", "factor-type-precedence", "sharding-size", "factor-index", "axes"]
OTHER_RANKING = ["factor-type-precedence", "source-tensor-size", "sharding-size", "factor-index", "axes"]


@pytest.fixture(scope="module")
def model() -> Path:
    """An MLP train step lowered from JAX whose shardings conflict (examples/search/make_step.py):
    Shardy's default (aggressive) strategy settles the conflicts towards the larger tensors and
    communicates more than the basic strategy does."""
    return ROOT / "examples" / "search" / "step.mlir"


def _space(directory: Path, body: str) -> Path:
    path = directory / "space.yaml"
    path.write_text(textwrap.dedent(body))
    return path


def _blocked_rules(directory: Path) -> Path:
    rules = directory / "blocked"
    rules.mkdir(exist_ok=True)
    (rules / "op_sharding_rules.yaml").write_text(
        "stablehlo.dot_general: {builder: dot_general, blocked_propagation: [contracting]}\n")
    return rules


def _bytes(report) -> int:
    return sum(t["bytes"] for t in report.totals().values())


SMALL_SPACE = f"""\
    vary:
      {STRATEGY}: [aggressive, basic]
      {RANKING}:
        - {DEFAULT_RANKING}
        - {OTHER_RANKING}
      rules: [null, blocked]
    """


def test_search_finds_the_cheaper_point_and_its_files_reproduce_it(model, tmp_path):
    _blocked_rules(tmp_path)
    space = _space(tmp_path, SMALL_SPACE)
    result = search(model, space, jobs=1, out_dir=tmp_path / "out", use_cache=False)
    assert result.how == "full grid of 8 points"
    assert len(result.points) == 8 and all(p.ok for p in result.points)
    default, best = result.default, result.best
    # The default point is the pipeline untouched: its figure is plain `cost`'s.
    assert default.settings == {}
    assert default.collective_bytes == _bytes(cost(model, "sdy-propagation-pipeline"))
    # Basic propagation moves less on this step, whatever the other settings.
    assert best.settings.get(STRATEGY) == "basic"
    assert best.collective_bytes < default.collective_bytes
    basic = _bytes(cost(model, "sdy-propagation-pipeline",
                        options={"sdy-user-priority-propagate": {"propagation-strategy": "basic"}}))
    assert best.collective_bytes == basic
    assert [p.objective for p in result.points] == sorted(p.objective for p in result.points)
    # The best point, written as files that `cost` and `run` take as they are.
    pipeline = tmp_path / "out" / "best" / "pipeline.yaml"
    rc, out, err = run_sdy_dsl(["cost", str(model), "--pipeline", str(pipeline), "--json"])
    assert rc == 0, err
    totals = json.loads(out)["totals"]
    assert totals == best.totals
    assert sum(t["bytes"] for t in totals.values()) == best.collective_bytes
    rc, _, err = run_sdy_dsl(["run", str(pipeline), str(model), "-o", str(tmp_path / "best.mlir")])
    assert rc == 0, err


def test_params_and_rules_points_reach_the_passes(model, tmp_path):
    """A param point and a rules point each run with their setting: the written
    params directory and rules copy give the point's own figures."""
    _blocked_rules(tmp_path)
    space = _space(tmp_path, f"""\
        vary:
          {RANKING}: [{OTHER_RANKING}]
          rules: [blocked]
        """)
    result = search(model, space, jobs=1, out_dir=tmp_path / "out", use_cache=False)
    (point,) = [p for p in result.points if p.settings]
    assert point.settings[RANKING] == OTHER_RANKING and point.settings["rules"].endswith("blocked")
    params_dir = tmp_path / "params"
    params_dir.mkdir()
    (params_dir / "x.yaml").write_text(f"extends: sdy-insert-explicit-reshards\nparams:\n"
                                       f"  candidate-ranking: {OTHER_RANKING}\n")
    expected = cost(model, "sdy-propagation-pipeline", rules=[tmp_path / "blocked", params_dir])
    assert point.totals == expected.totals()


def test_a_killed_search_resumes_without_running_finished_points(model, tmp_path):
    _blocked_rules(tmp_path)
    space = _space(tmp_path, SMALL_SPACE)
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.Popen([sys.executable, "-m", "sdy_dsl", "search", str(model), str(space), "--jobs", "1",
                             "--cache-dir", str(cache)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(cache.glob("*.json"))) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = len(list(cache.glob("*.json")))
    assert 2 <= finished < 8, "the search was not interrupted mid-way"
    result = search(model, space, jobs=1, cache_dir=cache)
    assert sum(p.cached for p in result.points) == finished
    assert len(result.points) == 8 and len(list(cache.glob("*.json"))) == 8
    # A cached point's figures are those of a fresh run.
    fresh = {json.dumps(p.settings, sort_keys=True): p.totals
             for p in search(model, space, jobs=1, use_cache=False).points}
    assert all(fresh[json.dumps(p.settings, sort_keys=True)] == p.totals for p in result.points)


def test_extending_a_space_runs_only_the_new_points(model, tmp_path):
    cache = tmp_path / "cache"
    first = search(model, _space(tmp_path, f"vary:\n  {STRATEGY}: [aggressive]\n"), jobs=1, cache_dir=cache)
    assert [p.cached for p in first.points] == [False]
    second = search(model, _space(tmp_path, f"vary:\n  {STRATEGY}: [aggressive, basic]\n"), jobs=1,
                    cache_dir=cache)
    assert sorted((p.settings.get(STRATEGY, "default"), p.cached) for p in second.points) == \
        [("basic", False), ("default", True)]


def test_a_failing_point_is_reported_and_the_search_completes(model, tmp_path):
    space = _space(tmp_path, f"""\
        vary:
          {STRATEGY}: [aggressive, basic]
          priorities: [null, {{9: 0}}]
        """)
    result = search(model, space, jobs=2, use_cache=False)
    failed = [p for p in result.points if not p.ok]
    assert len(result.points) == 4 and len(failed) == 2
    assert all("@main has no argument 9" in p.error for p in failed)
    assert result.points[-2:] == failed  # failures rank last
    assert result.best is not None and result.best.settings == {STRATEGY: "basic"}
    assert "failed" in result.table()


def test_priorities_change_the_propagation(model, tmp_path):
    """User priorities on @main's arguments: x (argument 4) first, then the weights."""
    from sdy_dsl.search import apply_priorities
    priorities = {"4": 0, "0": 1, "1": 1, "2": 1, "3": 1}
    prioritized = apply_priorities(model.read_text(), priorities)
    signature = prioritized.split("func.func public @main(")[1].split(") -> ")[0]
    # every dimension with axes gets the argument's priority; empty closed ones none
    assert '%arg4: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}p0, {}]>' in signature
    assert '%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}p1]>' in signature
    space = _space(tmp_path, "vary:\n  priorities: [{4: 0, 0: 1, 1: 1, 2: 1, 3: 1}]\n")
    result = search(model, space, jobs=1, use_cache=False, out_dir=tmp_path / "out")
    point = next(p for p in result.points if p.settings)
    assert point.ok and point.collective_bytes != result.default.collective_bytes
    assert point.collective_bytes == _bytes(cost(prioritized, "sdy-propagation-pipeline"))
    if result.best is point:  # the best point's model is written beside its pipeline
        assert (tmp_path / "out" / "best" / "model.mlir").read_text() == prioritized


def test_the_report_files(model, tmp_path):
    space = _space(tmp_path, f"vary:\n  {STRATEGY}: [aggressive, basic]\n")
    result = search(model, space, jobs=1, out_dir=tmp_path / "out", use_cache=False)
    out = tmp_path / "out"
    svg = ET.parse(out / "pareto.svg").getroot()
    circles = svg.findall(".//{http://www.w3.org/2000/svg}circle")
    assert len(circles) == len(result.points) + 1  # one per point, one ring round the best
    assert "<svg" in (out / "report.html").read_text()
    doc = json.loads((out / "results.json").read_text())
    assert [p["settings"] for p in doc["points"]] == [p.settings for p in result.points]
    # The Pareto front: here the two points hold the same memory, so only the cheaper one is on it.
    assert [p.pareto for p in result.points] == [True, False]
    assert (out / "table.txt").read_text().splitlines()[0].startswith("search: full grid of 2 points")


@pytest.mark.parametrize("body, message", [
    ("vary:\n  sdy-user-priority-propagate.propagation-stratgy: [basic]\n",
     "space.yaml:2:3: error: pass 'sdy-user-priority-propagate' has no option or param 'propagation-stratgy'; "
     "did you mean 'propagation-strategy'?"),
    ("vary:\n  sdy-user-priority-propogate.propagation-strategy: [basic]\n",
     "space.yaml:2:3: error: 'sdy-user-priority-propogate' is not a pass; did you mean 'sdy-user-priority-propagate'?"),
    ("vary:\n  sdy-basic-propagate.propagation-strategy: [basic]\n",
     "space.yaml:2:3: error: 'sdy-basic-propagate' is a pass the pipeline does not run"),
    ("vary:\n  sdy-user-priority-propagate.propagation-strategy: [basik]\n",
     "space.yaml:2:54: error: option 'propagation-strategy' expects one of"),
    ("vary:\n  sdy-insert-explicit-reshards.candidate-ranking: [[source-tensor-sise]]\n",
     "space.yaml:2:53: error:"),
    ("varry:\n  rules: [null]\n", "space.yaml:1:1: error: unknown key 'varry' in a search space; did you mean 'vary'?"),
    ("vary:\n  rules: [nowhere]\n", "space.yaml:2:11: error: rules directory 'nowhere' does not exist"),
    ("vary:\n  rulez: [null]\n", "space.yaml:2:3: error: unknown dimension 'rulez'"),
    ("vary:\n  rules: [null]\nobjective: colective-bytes\n",
     "space.yaml:3:12: error: unknown objective 'colective-bytes'; did you mean 'collective-bytes'?"),
    ("vary:\n  rules: [null]\nconstraints: {max-replicated-arg-bytes: 10}\n",
     "space.yaml:3:15: error: unknown constraint 'max-replicated-arg-bytes'; did you mean "
     "'max-replicated-argument-bytes'?"),
])
def test_space_errors_are_located(tmp_path, body, message):
    path = _space(tmp_path, body)
    with pytest.raises(SdyDslError) as info:
        load_space(path)
    assert str(info.value).startswith(str(path.parent) + "/" + message), str(info.value)


def test_the_cli_prints_the_table_and_refuses_bad_flags(model, tmp_path):
    space = _space(tmp_path, f"vary:\n  {STRATEGY}: [basic]\n")
    rc, out, err = run_sdy_dsl(["search", str(model), str(space), "--jobs", "1", "--no-cache"])
    assert rc == 0, err
    assert out.splitlines()[0].startswith("search: full grid of 1 points; objective: collective-bytes")
    assert "best: point 1 (sdy-user-priority-propagate.propagation-strategy=basic)" in out
    rc, _, err = run_sdy_dsl(["search", str(model), str(space), "--job", "2"])
    assert rc != 0 and "unknown option '--job'; did you mean '--jobs'?" in err
    rc, out, _ = run_sdy_dsl(["search", "--help"])
    assert rc == 0 and out.startswith("usage:\n  sdy-dsl search MODEL.mlir SPACE.yaml")
    rc, _, err = run_sdy_dsl(["search", str(model), str(space), "--verify", "1"])
    assert rc != 0 and "--verify compiles with JAX and needs MODEL as a serialized jax.export" in err


def test_the_dask_engine_runs_the_same_points(model, tmp_path):
    """The points go to a Dask cluster (here a local one) and come back with the local engine's figures."""
    space = _space(tmp_path, f"vary:\n  {STRATEGY}: [aggressive, basic]\n")
    local = search(model, space, jobs=1, use_cache=False)
    on_dask = search(model, space, jobs=2, use_cache=False, engine="dask")
    assert [(p.settings, p.totals) for p in on_dask.points] == [(p.settings, p.totals) for p in local.points]
    with pytest.raises(SdyDslError, match="unknown engine 'ray' \\(engines: local, dask\\)"):
        search(model, space, engine="ray")


def _console_blocks(text: str):
    """(command, expected output lines) of each `$ ` line of the ```console blocks."""
    import re
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    yield command, output
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            yield command, output


def _without_times(lines):
    """The table without what depends on the machine: the seconds column and the search's duration."""
    import re
    out = []
    for line in lines:
        line = re.sub(r" in [0-9.]+ s on ", " in _ s on ", line)
        line = re.sub(r"\s+\d+\.\dc?\s+(?=[a-z(])", " _ ", line) if re.match(r"\d+ +\d+ ", line) else line
        out.append(re.sub(r"\s+", " ", line).strip())
    return out


def test_the_docs_worked_example_runs_as_written(tmp_path, monkeypatch):
    """docs/search.md: the search prints the table shown (times aside), draws the
    picture shown, and the best point's files give the best point's cost."""
    doc = (ROOT / "docs" / "search.md").read_text()
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ran = []
    for command, expected in _console_blocks(doc):
        argv = command.split()
        assert argv[0] == "sdy-dsl"
        rc, out, err = run_sdy_dsl(argv[1:])
        assert rc == 0, err
        if expected:
            assert _without_times(out.splitlines()) == _without_times(expected)
        ran.append((argv[1], out))
    assert [name for name, _ in ran] == ["search", "cost", "run"]
    assert (tmp_path / "search-out" / "pareto.svg").read_text() == (ROOT / "docs" / "search-pareto.svg").read_text()
    best = json.loads((tmp_path / "search-out" / "results.json").read_text())["points"][0]
    assert json.loads(ran[1][1])["totals"] == best["totals"]


def test_the_example_model_is_what_its_script_lowers():
    """examples/search/step.mlir is make_step.py's output (no locations: none name this machine's paths)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_step", ROOT / "examples" / "search" / "make_step.py")
    make_step = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_step)
    assert make_step.lowered_text() == (ROOT / "examples" / "search" / "step.mlir").read_text()


def test_verify_puts_xla_compiled_collectives_beside_the_estimate(tmp_path):
    """--verify 1 with the model as a serialized jax.export: the best point compiled by XLA."""
    import importlib.util
    import models.zoo  # noqa: F401  (asks XLA for 8 CPU devices)
    import jax
    import jax.export
    from jax.sharding import NamedSharding, PartitionSpec as P
    spec = importlib.util.spec_from_file_location("make_step", ROOT / "examples" / "search" / "make_step.py")
    make_step = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_step)
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    f32 = jax.numpy.float32
    params = [(jax.ShapeDtypeStruct((32, 64), f32), jax.ShapeDtypeStruct((64, 32), f32)) for _ in range(2)]
    specs = ([(P(None, "model"), P(None, "model"))] * 2, P("model", None))
    shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), specs, is_leaf=lambda s: isinstance(s, P))
    exported = jax.export.export(jax.jit(make_step.step, in_shardings=shardings))(
        params, jax.ShapeDtypeStruct((16, 32), f32))
    path = tmp_path / "step.exported"
    path.write_bytes(exported.serialize())
    space = _space(tmp_path, f"vary:\n  {STRATEGY}: [basic]\n")
    rc, out, err = run_sdy_dsl(["search", str(path), str(space), "--jobs", "1", "--no-cache", "--verify", "1",
                                "-o", str(tmp_path / "out")])
    assert rc == 0, err
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    best, other = doc["points"]
    assert best["settings"] == {STRATEGY: "basic"} and other["xla"] is None
    # XLA's own program for the best point: its collectives, counted from the compiled HLO.
    import sdy_dsl.jax as sj
    tuned = sj.apply(exported, "sdy-propagation-pipeline",
                     options={"sdy-user-priority-propagate": {"propagation-strategy": "basic"}})
    args, kwargs = sj._abstract_args(tuned)
    assert best["xla"] == sj.compiled_collectives(tuned, *args, **kwargs) != {}
    assert "XLA compiled" in (tmp_path / "out" / "report.html").read_text()


def test_params_of_the_passes_pricing_runs_can_vary(tmp_path):
    """sdy-reshard-to-collectives runs when a point is priced, not in the pipeline: its params
    reach it (gather everything first: one all-gather of the whole tensor, then a local slice);
    its options, fixed by the pricing, are a located error."""
    module = tmp_path / "move.mlir"
    module.write_text(
        'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'
        'func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})'
        ' -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {\n'
        '  %0 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>\n'
        '  return %0 : tensor<8x8xf32>\n}\n')
    space = _space(tmp_path, "pipeline: shardy_full\nvary:\n  sdy-reshard-to-collectives.step-order:\n"
                             "    - [all-gather, all-slice, collective-permute, all-to-all]\n")
    result = search(module, space, jobs=1, use_cache=False)
    tuned = next(p for p in result.points if p.settings)
    # Shardy's order: a permute, an all-to-all and a gather of 64 + 64 + 128 bytes per device.
    assert result.default.totals == {"all_gather": {"count": 1, "bytes": 128}, "all_to_all": {"count": 1, "bytes": 64},
                                     "collective_permute": {"count": 1, "bytes": 64}}
    # Gather first: all of the 8x8 f32 tensor (256 bytes), then slice locally (0 bytes).
    assert tuned.totals == {"all_gather": {"count": 1, "bytes": 256}, "all_slice": {"count": 1, "bytes": 0}}
    bad = _space(tmp_path, "vary:\n  sdy-reshard-to-collectives.keep-redundant-reshards: [true]\n")
    with pytest.raises(SdyDslError, match="space.yaml:2:3: error: 'sdy-reshard-to-collectives' runs only when a "
                                          "point is priced .*not its option 'keep-redundant-reshards'"):
        load_space(bad)
