"""The installed pytest plugin, used as a user tuning a rule file would (issue 13, problem 5).

A user project: a rule directory with their copy of a pass, and a test that
lowers a JAX function and snapshots the pipeline output. `--snapshot-update`
records a readable .mlir file; a rule edit then fails the test with the diff.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

USER_TEST = textwrap.dedent('''\
    import os
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    def test_my_close_shardings(sdy_dsl_snapshot):
        mesh = jax.make_mesh((2, 4), ("data", "model"))
        x = jax.ShapeDtypeStruct((8, 16), jnp.float32, sharding=NamedSharding(mesh, P("data", None)))
        w = jax.ShapeDtypeStruct((16, 32), jnp.float32, sharding=NamedSharding(mesh, P(None, "model")))
        lowered = jax.jit(lambda x, w: jnp.tanh(x @ w)).lower(x, w)
        sdy_dsl_snapshot(lowered, "builtin.module(sdy-user-priority-propagate,sdy-close-shardings)")
    ''')

# The user's copy of sdy-close-shardings; the edit below makes it keep `?`.
CLOSE = textwrap.dedent('''\
    pass: sdy-close-shardings
    summary: my close shardings
    driver: {kind: walk}
    rules:
      - id: close
        match: "$op = *"
        rewrite:
          - for_each_sharding($op, $s => drop_replicated(closed($s)))
    ''')


def run_pytest(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    plugin = [] if _entry_point_installed() else ["-p", "sdy_dsl.pytest_plugin"]
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin,
                           "--sdy-dsl-rules", "my_rules", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)


def _entry_point_installed() -> bool:
    from importlib.metadata import entry_points
    return any(ep.value == "sdy_dsl.pytest_plugin" for ep in entry_points(group="pytest11"))


def test_entry_point_is_declared():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"sdy_dsl": "sdy_dsl.pytest_plugin"}


def test_snapshot_of_a_tuned_rule_records_and_shows_the_diff(tmp_path):
    (tmp_path / "my_rules").mkdir()
    (tmp_path / "my_rules" / "close.yaml").write_text(CLOSE)
    (tmp_path / "test_model.py").write_text(USER_TEST)

    first = run_pytest(tmp_path, "--snapshot-update")
    assert first.returncode == 0, first.stdout + first.stderr
    (snap,) = (tmp_path / "__snapshots__" / "test_model").glob("*.mlir")
    assert snap.name == "test_my_close_shardings.mlir"
    recorded = snap.read_text()
    assert recorded.startswith("module") and '[{"data"}, {"model"}]' in recorded and "?" not in recorded

    assert run_pytest(tmp_path).returncode == 0  # unchanged rule: the snapshot holds

    (tmp_path / "my_rules" / "close.yaml").write_text(CLOSE.replace("drop_replicated(closed($s))", "$s"))
    after_edit = run_pytest(tmp_path)
    assert after_edit.returncode == 1
    # The diff shows, as whole MLIR lines, what the rule edit changed: the open dimensions are back.
    diff = [line for line in after_edit.stdout.splitlines() if line.startswith(("-  ", "+  "))]
    assert any(line.startswith("-     %0 = stablehlo.dot_general") and '[{"data"}, {"model"}]' in line
               for line in diff), after_edit.stdout
    assert any(line.startswith("+     %0 = stablehlo.dot_general") and '[{"data", ?}, {"model", ?}]' in line
               for line in diff), after_edit.stdout
    assert snap.read_text() == recorded  # a failing run never rewrites the snapshot
