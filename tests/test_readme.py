"""The README's main command, its first `run` example and its Python example work as written."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from lit_runner import run_sdy_dsl

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_main_command_is_what_xla_runs_on_a_bundled_model(tmp_path, monkeypatch):
    """The first command after installing: sdy-propagation-pipeline on an example, as the reference runs it."""
    from reference import run_reference
    first_sh = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    opt_line = next(line for line in first_sh.splitlines() if line.startswith("sdy-dsl "))
    argv = shlex.split(opt_line.split("#")[0])[1:]
    assert argv[0] == "opt" and argv[2] == "-sdy-propagation-pipeline" and argv[1].startswith("examples/")
    monkeypatch.chdir(ROOT)
    argv[argv.index("-o") + 1] = str(tmp_path / "out.mlir")
    rc, _, err = run_sdy_dsl(argv)
    assert rc == 0, err
    ok, expected = run_reference((ROOT / argv[1]).read_text(), "builtin.module(sdy-propagation-pipeline)")
    assert ok
    assert (tmp_path / "out.mlir").read_text() == expected


def test_first_run_example_is_what_xla_runs_on_a_real_model(tmp_path, monkeypatch):
    """The README's `run` example runs the pipeline XLA runs, by name, as the reference does."""
    from reference import run_reference
    first_sh = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    run_line = next(line for line in first_sh.splitlines() if line.startswith("sdy-dsl run "))
    argv = shlex.split(run_line.split("#")[0])[1:]
    assert argv[:2] == ["run", "sdy-propagation-pipeline"]
    monkeypatch.chdir(ROOT)
    argv[argv.index("-o") + 1] = str(tmp_path / "out.mlir")
    rc, _, err = run_sdy_dsl(argv)
    assert rc == 0, err
    ok, expected = run_reference((ROOT / argv[2]).read_text(), "builtin.module(sdy-propagation-pipeline)")
    assert ok and (tmp_path / "out.mlir").read_text() == expected


def test_python_example(tmp_path):
    code = re.search(r"\*\*\.\.\. call it from Python\?\*\*\n\n```python\n(.*?)```", README, re.S).group(1)
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("module @jit__lambda")
    assert 'sdy.sharding_origins = {data = "self"}' in proc.stdout
    assert "'sdy-user-priority-propagate': " in proc.stdout


def test_jax_loop_example(tmp_path):
    """The README's JAX loop (lower, tune, cost, apply, run, check) runs as written."""
    section = README[README.index("## From JAX and back"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("XLA_FLAGS", None)  # the example sets it itself
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["aggressive", "basic", "change", "(bytes)"]
    # What the prose under the example says: 8 KB more all-gathers estimated;
    # XLA gathers the weights whole, 9x jax.jit's 4 KB.
    total = lines[lines.index("total"):]
    assert next(r for r in total if r.split()[0] == "all_gather").split()[-1] == "+8192"
    jit_line = next(line for line in lines if line.startswith("jax.jit:"))
    tuned_line = next(line for line in lines if line.startswith("tuned:"))
    assert "'all-gather': {'count': 4, 'bytes': 4096}" in jit_line
    assert "'all-gather': {'count': 8, 'bytes': 36864}" in tuned_line
    assert any(line.startswith("  all-gather: sdy-dsl 12 (16384 bytes), XLA 8 (36864 bytes)") for line in lines)


def test_install_brings_what_the_tests_need():
    """The README's set-up commands install the browser the report test drives
    (no test depends on anything else of the system), and the package pins
    nothing tighter than its outputs need; `pip install 'sdy-dsl[jax]'` brings jax."""
    import tomllib
    from test_explain import BROWSER_HELP
    first_sh = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    apt = next(line for line in first_sh.splitlines() if line.startswith("apt-get install"))
    assert apt.split("#")[0].split()[-2:] == ["chromium", "chromium-driver"]
    assert "apt-get install chromium chromium-driver" in BROWSER_HELP
    assert any(line.startswith("pip install -e '.[test]'") for line in first_sh.splitlines())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    exact = [d for d in project["dependencies"] if "==" in d]
    # the MLIR bindings the rules run on; the grammar engine whose error positions and words are outputs
    assert exact == ["jaxlib==0.10.2", "pyparsing==3.3.2"]
    # (flatbuffers: jax.export's (de)serialization, which `search --verify` reads)
    assert project["optional-dependencies"]["jax"] == ["jax==0.10.2", "flatbuffers>=24"]
