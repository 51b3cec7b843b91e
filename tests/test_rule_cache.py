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
