"""The published JSON Schemas (sdy_dsl/schemas/) agree with the loaders.

Every built-in pass rule file and pipeline file validates; documents the
loaders reject are rejected by the schemas too (each invalid case is checked
against both, so the schema cannot drift from rulefile.py / pipeline.py).
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import yaml

jsonschema = pytest.importorskip("jsonschema")

from sdy_dsl.errors import RuleFileError
from sdy_dsl.interp.rulefile import load_rule_file
from sdy_dsl.pipeline import load_pipeline_file

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "sdy_dsl" / "schemas"


def _validator(name: str):
    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


RULE_FILE = _validator("rule-file")
PIPELINE = _validator("pipeline")


def _pass_files() -> list[Path]:
    """Rule files that define a pass (interfaces.yaml & co. are data files)."""
    found = []
    for path in sorted((ROOT / "rules").rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        if isinstance(doc, dict) and "pass" in doc:
            found.append(path)
    return found


def _errors(validator, doc) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("path", _pass_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_builtin_rule_file_matches_schema(path):
    assert _errors(RULE_FILE, yaml.safe_load(path.read_text())) == []


@pytest.mark.parametrize("path", sorted((ROOT / "pipelines").glob("*.yaml")), ids=lambda p: p.name)
def test_pipeline_file_matches_schema(path):
    assert _errors(PIPELINE, yaml.safe_load(path.read_text())) == []


def test_there_are_files_to_check():
    assert len(_pass_files()) >= 5
    assert list((ROOT / "pipelines").glob("*.yaml"))


# A rule file using every key the loader knows; it must load and validate.
FULL_RULE_FILE = """\
pass: demo-every-key
summary: Uses every key of the rule-file schema.
description: |
  Not a real pass.
anchor: func.func
hooks: demo_hooks.py
options:
  keep: {type: bool, default: true, help: "keep things"}
  limit: {type: int, default: 2}
  tag: {type: string, default: demo}
  mode: {type: enum, values: [fast, slow], default: fast}
driver: {kind: greedy, max-iterations: 3, traversal: bottom-up, strictness: existing-and-new}
stages:
  - {name: hello, call: announce}
  - {name: rewrite, rules: [to-reshard, mark-negate], driver: {kind: walk}}
  - name: cleanup
    rules: [erase-group]
rules:
  - id: to-reshard
    summary: constraint to reshard
    match: "%r = sdy.sharding_constraint(%x) {sharding = $s}"
    rewrite: "%r = sdy.reshard(%x) {sharding = $s, ...}"
  - id: mark-negate
    match: |
      %c = sdy.sharding_constraint(%x) {sharding = $s}
      %r = stablehlo.negate(%c)
    where:
      - option("keep")
      - rank(%x) <= option("limit")
    rewrite:
      - {create: '%y = sdy.reshard(%x) {sharding = $s}'}
      - {replace: '%r = stablehlo.negate(%y)'}
    benefit: 5
  - id: erase-group
    match: "$g = sdy.sharding_group(_)"
    where: option("mode") == "fast"
    rewrite:
      - erase($g)
"""

HOOKS = '''\
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext


@hook
def announce(ctx: RewriteContext) -> None:
    pass
'''


def _write_rule_file(tmp_path: Path, text: str) -> Path:
    (tmp_path / "demo_hooks.py").write_text(HOOKS)
    path = tmp_path / "demo.yaml"
    path.write_text(text)
    return path


def test_rule_file_with_every_key_loads_and_validates(tmp_path):
    passdef = load_rule_file(_write_rule_file(tmp_path, FULL_RULE_FILE))
    assert [s.name for s in passdef.stages] == ["hello", "rewrite", "cleanup"]
    assert _errors(RULE_FILE, yaml.safe_load(FULL_RULE_FILE)) == []


MINIMAL = "pass: demo-bad\nsummary: s\n"
RULE = "rules:\n  - id: r\n    match: '%r = stablehlo.negate(%x)'\n"

# (case id, document, the loader's message): both the schema and the loader reject it.
INVALID_RULE_FILES = [
    ("unknown-top-key", MINIMAL + "rule: []\n", "unknown key 'rule'"),
    ("missing-summary", "pass: demo-bad\nrules: []\n", "missing required key 'summary'"),
    ("bad-pass-name", "pass: Demo_Bad\nsummary: s\n", "invalid pass name"),
    ("bad-anchor", MINIMAL + "anchor: func\n", "unknown anchor 'func'"),
    ("bad-driver-kind", MINIMAL + "driver: {kind: fixpoint}\n", "unknown driver kind 'fixpoint'"),
    ("unknown-driver-key", MINIMAL + "driver: {iterations: 3}\n", "unknown driver setting 'iterations'"),
    ("zero-iterations", MINIMAL + "driver: {kind: greedy, max-iterations: 0}\n", "max-iterations must be"),
    ("bad-traversal", MINIMAL + "driver: {traversal: sideways}\n", "traversal must be"),
    ("traversal-on-walk", MINIMAL + "driver: {kind: walk, traversal: bottom-up}\n", "'traversal' applies to the greedy and once drivers only"),
    ("iterations-on-once", MINIMAL + "driver: {kind: once, max-iterations: 3}\n", "'max-iterations' applies to the greedy driver only"),
    ("rules-not-list", MINIMAL + "rules: {id: r}\n", "'rules' must be a list"),
    ("rule-without-rewrite", MINIMAL + RULE, "rule is missing 'rewrite'"),
    ("bad-rule-id", MINIMAL + RULE.replace("id: r", "id: Bad_Id") + "    rewrite: []\n", "invalid rule id"),
    ("unknown-rule-key", MINIMAL + RULE + "    rewrite: []\n    benfit: 2\n", "unknown rule key 'benfit'"),
    ("negative-benefit", MINIMAL + RULE + "    rewrite: []\n    benefit: -1\n", "benefit must be"),
    ("where-mapping", MINIMAL + RULE + "    where: {a: b}\n    rewrite: []\n", "'where' must be"),
    ("unknown-action", MINIMAL + RULE + "    rewrite:\n      - {insert: '%r = stablehlo.abs(%x)'}\n",
     "an action is an expression"),
    ("bad-option-type", MINIMAL + "options:\n  n: {type: float, default: 1}\n", "type must be one of"),
    ("enum-without-values", MINIMAL + "options:\n  m: {type: enum, default: a}\n", "an enum needs 'values'"),
    ("option-without-default", MINIMAL + "options:\n  n: {type: int}\n", "missing 'default'"),
    ("bool-option-string-default", MINIMAL + "options:\n  b: {type: bool, default: 'yes'}\n", "expects a bool"),
    ("unknown-option-key", MINIMAL + "options:\n  b: {type: bool, default: true, doc: x}\n", "unknown key 'doc'"),
    ("spaced-option-name", MINIMAL + "options:\n  my opt: {type: bool, default: true}\n", "option name 'my opt' must be"),
    ("empty-stages", MINIMAL + "stages: []\n", "'stages' must be a non-empty list"),
    ("unknown-stage-key", MINIMAL + "stages:\n  - {name: a, kind: walk, rules: []}\n", "unknown key 'kind'"),
    ("stage-without-rules-or-call", MINIMAL + "stages:\n  - {name: a}\n", "'rules' must be a list"),
]


@pytest.mark.parametrize("text,message", [c[1:] for c in INVALID_RULE_FILES],
                         ids=[c[0] for c in INVALID_RULE_FILES])
def test_invalid_rule_file_rejected_by_schema_and_loader(tmp_path, text, message):
    assert _errors(RULE_FILE, yaml.safe_load(text)), "the schema accepted an invalid rule file"
    with pytest.raises(RuleFileError, match=message.replace("(", r"\(")):
        load_rule_file(_write_rule_file(tmp_path, text))


INVALID_PIPELINES = [
    ("missing-passes", "description: x\n", "a pipeline file is a mapping with a 'passes' list"),
    ("unknown-key", "passes: []\nstages: []\n", "unknown key 'stages'"),
    ("passes-not-list", "passes: sdy-close-shardings\n", "'passes' must be a list"),
    ("func-func-not-list", "passes:\n  - func.func: sdy-close-shardings\n", "func.func takes a list"),
    ("options-not-mapping", "passes:\n  - sdy-basic-propagate: [true]\n", "must be a mapping"),
    ("two-passes-in-one-entry", "passes:\n  - {inline: {}, cse: {}}\n", "a pipeline entry is"),
    ("number-entry", "passes:\n  - 3\n", "a pipeline entry is"),
]


@pytest.mark.parametrize("text,message", [c[1:] for c in INVALID_PIPELINES],
                         ids=[c[0] for c in INVALID_PIPELINES])
def test_invalid_pipeline_rejected_by_schema_and_loader(tmp_path, text, message):
    assert _errors(PIPELINE, yaml.safe_load(text)), "the schema accepted an invalid pipeline"
    path = tmp_path / "pipeline.yaml"
    path.write_text(text)
    with pytest.raises(RuleFileError, match=message):
        load_pipeline_file(path)


def test_nested_pipeline_with_options_validates():
    doc = yaml.safe_load(textwrap.dedent("""\
        passes:
          - inline
          - {sdy-aggressive-propagate: {propagation-strategy: basic, conservative-propagation: true}}
          - sdy-basic-propagate:
          - func.func:
              - sdy-sharding-constraint-to-reshard
        """))
    assert _errors(PIPELINE, doc) == []
