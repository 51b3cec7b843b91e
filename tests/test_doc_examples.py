"""The examples of the docs run as written (issue #23): each rule file, rule,
pipeline file and op-sharding-rule block of docs/*.md loads; each excerpt of a
shipped rule file (`# rules/...` first line) is in that file; each `sdy-dsl`
command of the docs and the README runs (in a directory where the docs'
placeholder inputs, in.mlir, model.mlir, m.mlir, cases.mlir, are a small
module), and so does the shell session of 'Changing a built-in pass'."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from lit_runner import run_sdy_dsl
from sdy_dsl.passes import PassRegistry
from sdy_dsl.pipeline import load_pipeline_file
from sdy_dsl.rule_library import RuleLibrary

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
INPUT = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2, "y"=1]>
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}]>}) -> tensor<8x8xf32> {
      %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
      %1 = stablehlo.negate %0 : tensor<8x8xf32>
      return %1 : tensor<8x8xf32>
    }
    """)


def blocks(kind: str):
    for doc in DOCS:
        for m in re.finditer(rf"```{kind}\n(.*?)```", doc.read_text(), re.S):
            yield pytest.param(m.group(1), id=f"{doc.name}:{doc.read_text()[:m.start()].count(chr(10)) + 1}")


def _kind(block: str) -> str:
    body = [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    first = body[0] if body else ""
    if re.match(r"(pass|extends):", first) or any(re.match(r"(pass|extends):", line) for line in body):
        return "rule file"
    if re.match(r"\s*- id:", first):
        return "rules"
    if re.match(r"(passes|description):", first) or any(line.startswith("passes:") for line in body):
        return "pipeline"
    if re.match(r"[a-z_]+\.[a-z_.]+:", first):
        return "op table"
    return "fragment"


def _checkable(block: str) -> bool:
    """A whole file, rules, a pipeline, an op table, a rule fragment with its pattern, or a quote of a shipped
    file (where-only fragments and data-file excerpts are checked where the whole thing is)."""
    if re.match(r"# (rules/\S+\.yaml)", block):
        return True
    kind = _kind(block)
    if kind == "op table":
        return not block.lstrip().startswith(("heuristics:", "stablehlo.while:"))
    return kind != "fragment" or re.search(r"^\s*match:", block, re.M) is not None


@pytest.mark.parametrize("block", [p for p in blocks("yaml") if _checkable(p.values[0])])
def test_yaml_example(block, tmp_path):
    first = block.splitlines()[0]
    if re.match(r"# (rules/\S+\.yaml)", first):  # a quote of shipped files: every line is in the file named above it
        shipped: list[str] = []
        for line in block.splitlines():
            named = re.match(r"# (rules/\S+\.yaml)", line)
            if named:
                source = named.group(1)
                shipped = (ROOT / source).read_text().splitlines()
                continue
            code = line.split("  #")[0].strip()
            assert not code or code.startswith("#") or any(code in s for s in shipped), (source, line)
        return
    kind = _kind(block)
    rules = tmp_path / "doc_rules"
    rules.mkdir()
    if kind == "rule file":
        named = re.match(r"# my-rules/(\S+\.yaml)", first)
        (rules / (named.group(1) if named else "example.yaml")).write_text(block)
        registry = PassRegistry([rules])
        doc = yaml.safe_load(block)
        registry.get(doc.get("pass") or doc["extends"])
    elif kind == "rules":
        # Rules of a shipped pass use its hooks: the example extends that pass (replacing its rule).
        rule_id = re.search(r"- id: (\S+)", block).group(1)
        home = next((p for p in sorted((ROOT / "rules").rglob("*.yaml"))
                     if re.search(rf"- id: {re.escape(rule_id)}$", p.read_text(), re.M)), None)
        head = "pass: doc-example\nsummary: x\n"
        if home is not None:
            head += f"extends: {yaml.safe_load(home.read_text())['pass']}\n"
        (rules / "example.yaml").write_text(head + "rules:\n" + textwrap.indent(textwrap.dedent(block), "  "))
        PassRegistry([rules]).get("doc-example")
    elif kind == "pipeline":
        (tmp_path / "my_rules").mkdir()
        (tmp_path / "p.yaml").write_text(block)
        assert load_pipeline_file(tmp_path / "p.yaml").steps
    elif kind == "fragment":  # a rule's match (and where, rewrite): compiled as a rule
        body = textwrap.dedent(block)
        matches = re.findall(r"^match:.*$", body, re.M)
        if len(matches) > 1:  # alternatives, one per line: a rule each
            bodies = [m + "\n" for m in matches]
        else:
            bodies = [body]
        text = "pass: doc-example\nsummary: x\nrules:\n"
        for n, b in enumerate(bodies):
            if not re.search(r"^rewrite:", b, re.M):
                b += "rewrite: []\n"
            text += f"  - id: doc-example-{n}\n" + textwrap.indent(b, "    ")
        (rules / "example.yaml").write_text(text)
        PassRegistry([rules]).get("doc-example")
    elif kind == "op table":
        (rules / "op_sharding_rules.yaml").write_text(block)
        registry = RuleLibrary([rules]).op_registry
        for name in yaml.safe_load(block):
            assert registry.sharding_rules.declaration_for(name) is not None, name


def _commands():
    for doc in DOCS:
        for m in re.finditer(r"```sh\n(.*?)```", doc.read_text(), re.S):
            text = m.group(1).replace("\\\n", " ")
            if text.startswith("mkdir"):
                continue  # a shell session: test_shell_session
            for line in text.splitlines():
                line = line.split("  #")[0].strip()
                if line.startswith("sdy-dsl "):
                    yield pytest.param(line, id=line[:60])


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    for name in ("in.mlir", "model.mlir", "m.mlir"):
        (tmp_path / name).write_text(INPUT)
    (tmp_path / "cases.mlir").write_text(INPUT + "// -----\n" + INPUT)
    for name in ("untuned.mlir", "tuned.mlir"):
        (tmp_path / name).write_text(INPUT)
    for name in ("tests", "rules", "pipelines", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("line", list(_commands()))
def test_command(line, workdir):
    argv = shlex.split(line)[1:]
    if argv[0] == "run" and "gpt8l" in line:
        argv[2] = "examples/mlp_grad_2x4.mlir"  # the same command on a smaller model (test_readme runs it)
    if "--help" in argv:
        with pytest.raises(SystemExit) as e:
            run_sdy_dsl(argv)
        assert e.value.code == 0
        return
    rc, out, err = run_sdy_dsl(argv)
    assert rc == 0, err


def test_shell_session(workdir):
    """mkdir my-rules; cp ...; (edit); sdy-dsl opt in.mlir -sdy-close-shardings --rules my-rules."""
    doc = (ROOT / "docs" / "rule-language.md").read_text()
    session = re.search(r"```sh\n(mkdir my-rules\n.*?)```", doc, re.S).group(1)
    edit = re.search(r"# edit: (.*?)  ->  (.*)", session)
    bin_dir = workdir / "bin"
    bin_dir.mkdir()
    (bin_dir / "sdy-dsl").write_text(f"#!/bin/sh\nexec {sys.executable} -m sdy_dsl \"$@\"\n")
    (bin_dir / "sdy-dsl").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    script = session.replace("# edit:", "# ").replace(
        "sdy-dsl opt", f"sed -i {shlex.quote('s/' + re.escape(edit.group(1)) + '/' + edit.group(2) + '/')} "
                       "my-rules/close_shardings.yaml\nsdy-dsl opt", 1)
    proc = subprocess.run(["bash", "-ec", script], capture_output=True, text=True, env=env, cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    assert '<@mesh, [{"x"}, {}]>' in proc.stdout  # closed, and the replicated axes kept
