"""The pass registry: rule files found under rule directories, by pass name.

Built-in rule files live in `rules/<group>/*.yaml` (a file is a pass's rule
file when it has a top-level `pass:` key). `--rules DIR` adds a user's
directory on top: a pass defined there replaces the built-in one of the same
name, so a user can copy a rule file, edit it and run it without rebuilding.
A user directory may also hold an `interfaces.yaml`, layered over the built-in
`rules/interfaces.yaml` (e.g. to give a custom_call target data-flow edges).
"""
from __future__ import annotations

import re
from pathlib import Path

from .errors import UsageError
from .interp.rulefile import PassDef, load_rule_file
from .resources import builtin_rules_dir
from .runtime import interfaces

BUILTIN_RULES_DIR = builtin_rules_dir()
_PASS_KEY = re.compile(r"^pass:\s*['\"]?([^'\"\s#]+)", re.M)

# Passes that MLIR itself provides (run through its PassManager).
GENERIC_MLIR_PASSES = ("inline", "symbol-dce", "canonicalize", "cse", "symbol-privatize",
                       "loop-invariant-code-motion", "sccp", "strip-debuginfo")


# Data files (op_sharding_rules.yaml, op_priority_heuristics.yaml, ...) in a
# user's --rules directory override the built-in ones of the same name.
_user_rule_dirs: list[Path] = []


def resolve_data_file(name: str, default_dir: Path) -> Path:
    for directory in reversed(_user_rule_dirs):
        for candidate in (directory / name, *directory.rglob(name)):
            if candidate.is_file():
                return candidate
    return default_dir / name


class PassRegistry:
    def __init__(self, rule_dirs: list[Path] | None = None, include_builtin: bool = True):
        _user_rule_dirs[:] = [Path(d) for d in rule_dirs or []]
        self.files: dict[str, Path] = {}
        self._loaded: dict[str, PassDef] = {}
        dirs = ([BUILTIN_RULES_DIR] if include_builtin else []) + [Path(d) for d in rule_dirs or []]
        user_interfaces = [Path(d) / "interfaces.yaml" for d in rule_dirs or []
                           if (Path(d) / "interfaces.yaml").is_file()]
        interfaces.use_user_interface_files(user_interfaces)
        for d in dirs:
            if not d.is_dir():
                raise UsageError(f"rules directory '{d}' does not exist")
            for path in sorted(d.rglob("*.yaml")):
                try:
                    head = path.read_text()
                except (OSError, UnicodeDecodeError):
                    continue
                m = _PASS_KEY.search(head)
                if m:
                    self.files[m.group(1)] = path  # later directories override

    def names(self) -> list[str]:
        return sorted(self.files)

    def has(self, name: str) -> bool:
        return name in self.files

    def get(self, name: str) -> PassDef:
        if name not in self._loaded:
            if name not in self.files:
                raise UsageError(f"unknown pass '{name}'")
            passdef = load_rule_file(self.files[name])
            self._loaded[name] = passdef
        return self._loaded[name]
