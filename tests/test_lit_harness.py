"""The lit harness finds `filecheck` the way a venv used without activating it
needs: beside the running interpreter first, then on PATH; without either, the
test fails with one line saying how to install it (not a TypeError from
running `None`)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import lit_runner
from lit_runner import filecheck_path

ROOT = Path(__file__).resolve().parent.parent
ONE_LIT_TEST = "tests/test_lit.py::test_lit_file[canonicalize/sdy_reshard.mlir]"


def _executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_filecheck_beside_the_interpreter_comes_before_path(tmp_path, monkeypatch):
    beside = _executable(tmp_path / "venv" / "bin" / "filecheck")
    _executable(tmp_path / "elsewhere" / "filecheck")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "venv" / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    assert filecheck_path() == str(beside)


def test_filecheck_on_path_when_not_beside_the_interpreter(tmp_path, monkeypatch):
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    on_path = _executable(tmp_path / "elsewhere" / "filecheck")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "venv" / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    assert filecheck_path() == str(on_path)


def test_no_filecheck_fails_with_one_line_saying_how_to_install_it(tmp_path, monkeypatch):
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "venv" / "bin" / "filecheck").write_text("not executable")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "venv" / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(pytest.fail.Exception) as failure:
        filecheck_path()
    message = str(failure.value)
    assert "\n" not in message
    assert message == (f"filecheck not found beside {tmp_path / 'venv' / 'bin' / 'python'} or on PATH: "
                       "pip install -e '.[test]'")
    assert not failure.value.pytrace  # reported as that line alone, without a traceback


def _pytest_on_one_lit_test(python: str) -> subprocess.CompletedProcess:
    # PATH without the interpreter's directory: how `venv/bin/pytest` runs unactivated.
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", ONE_LIT_TEST],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_lit_test_runs_with_only_the_interpreter_knowing_where_filecheck_is():
    assert lit_runner.shutil.which("filecheck", path="/usr/bin:/bin") is None  # the premise
    assert (Path(sys.executable).parent / "filecheck").exists()  # installed with this interpreter
    proc = _pytest_on_one_lit_test(sys.executable)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout


def test_lit_test_without_filecheck_anywhere_says_how_to_install_it(tmp_path):
    # The same interpreter, reached through a directory that holds no filecheck.
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.symlink_to(Path(sys.executable).resolve())
    proc = _pytest_on_one_lit_test(str(python))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "TypeError" not in proc.stdout
    # The failure's report is that one line (pytest's header and summary aside).
    assert f"filecheck not found beside {python} or on PATH: pip install -e '.[test]'" in proc.stdout.splitlines()
