"""A pass pipeline as data: its steps (a pass, its options, where it is
nested) and the rule directories a pipeline file names. Read from the
command line (sdy_dsl/pipeline.py) or a pipeline file (sdy_dsl/pipeline_files.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .interp.yaml_loader import Loc

PASS_NAME = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.-]*$")


@dataclass
class Step:
    name: str
    options: dict = field(default_factory=dict)  # raw: str values (strings) or typed (YAML)
    nested_in: str | None = None  # "func.func" when written inside func.func(...)
    loc: Loc | None = None
    typed: bool = False  # options already typed (from YAML)
    pipeline: str | None = None  # the named pipeline (sdy-propagation-pipeline) this step comes from


@dataclass
class Pipeline:
    steps: list[Step]
    rule_dirs: list[Path] = field(default_factory=list)  # a pipeline file's `rules:` (relative to it)


def check_pass_name(name: str) -> str:
    """A pass name, trimmed; an empty or malformed one is an error (ValueError)."""
    name = name.strip()
    if not name:
        raise ValueError("empty pass name")
    if not PASS_NAME.match(name):
        raise ValueError(f"invalid pass name '{name}'")
    return name
