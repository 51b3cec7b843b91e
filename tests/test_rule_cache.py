"""The parse-tree cache of rule files: a second process parses nothing again.

Rule files are loaded on every start; their patterns and expressions are
parsed once and kept in the user's cache, keyed by the file's content.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RULE_FILE = REPO / "rules" / "export" / "close_shardings.yaml"

# Loads one rule file and prints how many patterns and expressions pyparsing parsed.
LOAD_AND_COUNT = f"""
import sdy_dsl.interp.grammar as grammar
calls = []
for name in ("EXPR", "PATTERN"):
    element = getattr(grammar, name)
    original = element.parse_string
    element.parse_string = lambda text, _o=original, **kw: (calls.append(text), _o(text, **kw))[1]
from sdy_dsl.interp.rulefile import load_rule_file
load_rule_file({str(RULE_FILE)!r})
print(len(calls))
"""


def parses_in_fresh_process(cache_home: Path) -> int:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(REPO)}
    env.pop("SDY_DSL_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", LOAD_AND_COUNT], env=env, capture_output=True,
                          text=True, check=True)
    return int(done.stdout.split()[-1])


def test_second_load_of_a_rule_file_parses_nothing(tmp_path):
    first = parses_in_fresh_process(tmp_path)
    assert first > 0  # the file has patterns and expressions: all parsed the first time
    assert list((tmp_path / "sdy-dsl").glob("*.pickle"))
    assert parses_in_fresh_process(tmp_path) == 0


# Prints the passes a rules directory defines (the run's pass index, kept by the files' stats).
PASS_NAMES = """
import sys
from sdy_dsl.rule_library import RuleLibrary
print(sorted(RuleLibrary([sys.argv[1]], include_builtin=False).pass_files))
"""


def pass_names_in_fresh_process(cache_home: Path, rules: Path) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(REPO)}
    env.pop("SDY_DSL_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", PASS_NAMES, str(rules)], env=env, capture_output=True,
                          text=True)
    return done.stdout.strip() or done.stderr


def test_the_pass_index_follows_edits_to_a_rules_directory(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "a.yaml").write_text("pass: my-pass-a\nrules: []\n")
    assert pass_names_in_fresh_process(tmp_path, rules) == "['my-pass-a']"
    assert pass_names_in_fresh_process(tmp_path, rules) == "['my-pass-a']"  # from the index
    (rules / "a.yaml").write_text("pass: my-pass-b\nrules: []\n")  # the same size
    assert pass_names_in_fresh_process(tmp_path, rules) == "['my-pass-b']"
    (rules / "b.yaml").write_text("\n\npass: my-pass-b\nrules: []\n")  # a second definition
    assert "b.yaml:3:7: error: pass 'my-pass-b' is defined twice" in pass_names_in_fresh_process(tmp_path, rules)
    (rules / "b.yaml").write_text("pass: my-pass-c\nrules: []\n")
    assert pass_names_in_fresh_process(tmp_path, rules) == "['my-pass-b', 'my-pass-c']"
