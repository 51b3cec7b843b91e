"""The rule files of one run, resolved in one place.

A run sees the built-in `rules/` directory and then each `--rules DIR` of the
user, in order (later wins). This object answers, for the whole run:
- which file defines each pass (`pass_files`): a file whose top-level mapping
  has `pass:`; two files of one directory defining the same pass is an error
  naming both; a user's directory may redefine a built-in pass;
- the layers of a data file (`data_layers`): the built-in file, then the
  user's same-named file under each directory, merged per entry by their
  loaders (per op, per custom_call target, per heuristic, per interface op);
- the op registry built from those layers (`op_registry`) and the op-priority
  heuristics (`heuristics`).
The run carries it (PassRegistry, RewriteContext, sdy_dsl.runtime.op_registry.using).
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

from .errors import RuleFileError, UsageError, did_you_mean
from .interp.op_rules_loader import load_declarations
from .interp.yaml_loader import load_yaml
from .resources import builtin_rules_dir
from .runtime import op_registry
from .runtime.interfaces import InterfaceRegistry
from .runtime.op_registry import OpRegistry
from .runtime.op_sharding_rule_registry import OpShardingRuleRegistry
from .runtime.propagation.heuristics import heuristics_from_layers

INTERFACES_FILE = "interfaces.yaml"
OP_SHARDING_RULES_FILE = "op_sharding_rules.yaml"
HEURISTICS_FILE = "op_priority_heuristics.yaml"
DATA_FILES = (INTERFACES_FILE, OP_SHARDING_RULES_FILE, HEURISTICS_FILE)


class RuleLibrary:
    def __init__(self, user_dirs=(), include_builtin: bool = True):
        self.user_dirs = [Path(d) for d in user_dirs]
        for d in self.user_dirs:
            if not d.is_dir():
                raise UsageError(f"rules directory '{d}' does not exist")
        self.includes_builtin = include_builtin
        self.dirs = ([builtin_rules_dir()] if include_builtin else []) + self.user_dirs

    # ------------------------------------------------------------------ files
    def data_layers(self, name: str) -> list[Path]:
        """The files named `name`, built-in first; at most one per directory."""
        layers = []
        for directory in [builtin_rules_dir()] + self.user_dirs:
            found = sorted(p for p in directory.rglob(name) if p.is_file())
            if len(found) > 1:
                raise RuleFileError(found[1], 1, 1, f"a second '{name}' in rules directory "
                                    f"'{directory}'", notes=(f"the first is {found[0]}",))
            layers.extend(found)
        return layers

    def is_user_file(self, path: Path) -> bool:
        """Whether PATH is in one of the user's rules directories."""
        resolved = path.resolve()
        return any(resolved.is_relative_to(d.resolve()) for d in self.user_dirs)

    @cached_property
    def pass_files(self) -> dict[str, Path]:
        """The file that defines each pass (the last layer's)."""
        return {name: paths[-1] for name, paths in self.pass_layers.items()}

    @cached_property
    def pass_layers(self) -> dict[str, list[Path]]:
        """Every file defining each pass, built-in first (a user's file may
        redefine a pass, or `extends:` the definition below it)."""
        files: dict[str, list[Path]] = {}
        for directory in self.dirs:
            in_this_dir: dict[str, Path] = {}
            if directory in self.user_dirs:
                check_files_recognised(directory)
            for path in sorted(directory.rglob("*.yaml")):
                if path.name in DATA_FILES:
                    continue
                doc = load_yaml(path)
                key = "pass" if isinstance(doc, dict) and "pass" in doc else "extends"
                if not isinstance(doc, dict) or key not in doc:
                    raise RuleFileError(path, 1, 1, "not a rule file (no 'pass:' nor 'extends:') nor a data "
                                        f"file ({', '.join(DATA_FILES)}){_did_you_mean(path.name)}")
                name = doc[key]  # `extends: P` without `pass:` adds to P itself
                if not isinstance(name, str):
                    raise doc.loc_of(key).error(f"'{key}' must be a pass name")
                name = name.strip()
                if name in in_this_dir:
                    raise doc.loc_of(key).error(
                        f"pass '{name}' is defined twice", notes=(f"also defined in {in_this_dir[name]}",))
                in_this_dir[name] = path
            for name, path in in_this_dir.items():
                files.setdefault(name, []).append(path)
        return files

    # ------------------------------------------------------------------ data
    @cached_property
    def op_registry(self) -> OpRegistry:
        """The op facts of the run: the data files read here, handed to the runtime."""
        interfaces = InterfaceRegistry()
        for path in self.data_layers(INTERFACES_FILE):
            interfaces.add_layer(load_yaml(path), path)
        rules = OpShardingRuleRegistry([load_declarations(path) for path in
                                        self.data_layers(OP_SHARDING_RULES_FILE)],
                                       interfaces)
        return OpRegistry(interfaces, rules, heuristics=lambda: self.heuristics)

    @cached_property
    def heuristics(self):
        return heuristics_from_layers([(load_yaml(path), path)
                                       for path in self.data_layers(HEURISTICS_FILE)])


# Files a user's rules directory may hold beside rule and data files.
_ACCEPTED_SUFFIXES = {".yaml", ".py", ".pyc", ".md", ".txt", ".rst"}


def _did_you_mean(name: str) -> str:
    return did_you_mean(name, DATA_FILES, cutoff=0.75)


def check_files_recognised(directory: Path) -> None:
    """Every file of a user's rules directory is a rule file, a data file, a
    hook module or documentation: a misspelled `op_sharding_rule.yaml` or a
    `.yml` would otherwise be silently ignored."""
    for path in sorted(directory.rglob("*")):
        if not path.is_file() or any(part.startswith(".") or part == "__pycache__"
                                     for part in path.relative_to(directory).parts):
            continue
        if path.suffix == ".yml":
            raise RuleFileError(path, 1, 1, "rule and data files end in '.yaml' (this file would be ignored)")
        if path.suffix not in _ACCEPTED_SUFFIXES:
            raise RuleFileError(path, 1, 1, "not a rule file, data file, hook module or documentation "
                                f"(expected *.yaml, *.py, *.md or *.txt){_did_you_mean(path.name)}")


_builtin: RuleLibrary | None = None


def builtin_library() -> RuleLibrary:
    """The built-in rules alone (what runs outside a CLI run or API call)."""
    global _builtin
    if _builtin is None:
        _builtin = RuleLibrary()
    return _builtin


# Outside a run, the runtime's op registry is the built-in rules'.
op_registry.set_default(lambda: builtin_library().op_registry)
