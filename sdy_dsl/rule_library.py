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

import inspect
import os
import sys
from functools import cache, cached_property
from pathlib import Path

from .errors import RuleFileError, UsageError, did_you_mean
from .hooks import arity, hooks_of_module, load_hook_module
from .interp.hook_guard import rule_hook
from .interp.op_rules_loader import load_declarations
from .interp.yaml_loader import FileFacts, Loc, load_yaml
from .resources import builtin_rules_dir
from .runtime import op_registry
from .runtime.interfaces import InterfaceRegistry
from .runtime.op_predicates import OpView, mark
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
        # The rule files `pass_layers` read, until their pass is loaded (`take_document`).
        self._documents: dict[Path, object] = {}
        self._listings: dict[Path, DirectoryListing] = {}

    def listing(self, directory: Path) -> "DirectoryListing":
        """What is under DIRECTORY, walked once per run (the built-in one once per process)."""
        if directory == builtin_rules_dir():
            return builtin_listing()
        if directory not in self._listings:
            self._listings[directory] = DirectoryListing(directory)
        return self._listings[directory]

    # ------------------------------------------------------------------ files
    def data_layers(self, name: str) -> list[Path]:
        """The files named `name`, built-in first; at most one per directory."""
        layers = []
        for directory in [builtin_rules_dir()] + self.user_dirs:
            found = [p for p in self.listing(directory).named(name) if p.is_file()]
            if len(found) > 1:
                raise RuleFileError(found[1], 1, 1, f"a second '{name}' in rules directory "
                                    f"'{directory}'", notes=(f"the first is {found[0]}",))
            layers.extend(found)
        return layers

    def is_user_file(self, path: Path) -> bool:
        """Whether PATH is in one of the user's rules directories."""
        if not self.user_dirs:  # (resolving a path costs a stat per component)
            return False
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
            # Which pass each file defines, kept by the files' stats: a run loads only its passes' files.
            defined = FileFacts("pass names", directory)
            for path in self.listing(directory).ending_with(".yaml"):
                if path.name in DATA_FILES:
                    continue
                name, line, col = defined.get(path, self._pass_defined_in)
                if name in in_this_dir:
                    raise RuleFileError(path, line, col, f"pass '{name}' is defined twice",
                                        notes=(f"also defined in {in_this_dir[name]}",))
                in_this_dir[name] = path
            defined.save()
            for name, path in in_this_dir.items():
                files.setdefault(name, []).append(path)
        return files

    def _pass_defined_in(self, path: Path) -> tuple[str, int, int]:
        """(the pass the rule file PATH defines or extends, where its name is); its
        document is kept for the pass's load (`take_document`)."""
        doc = load_yaml(path)
        key = "pass" if isinstance(doc, dict) and "pass" in doc else "extends"
        if not isinstance(doc, dict) or key not in doc:
            raise RuleFileError(path, 1, 1, "not a rule file (no 'pass:' nor 'extends:') nor a data "
                                f"file ({', '.join(DATA_FILES)}){_did_you_mean(path.name)}")
        name = doc[key]  # `extends: P` without `pass:` adds to P itself
        if not isinstance(name, str):
            raise doc.loc_of(key).error(f"'{key}' must be a pass name")
        self._documents[path] = doc
        loc = doc.loc_of(key)
        return str(name.strip()), loc.line, loc.col

    def take_document(self, path: Path):
        """The YAML of a rule file as `pass_layers` read it (None: not read, its
        pass known from the file facts, or taken already): loading a pass reads
        its file once, not twice. Handed out once, so no two loads share one document."""
        return self._documents.pop(path, None)

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
        """The op-priority heuristics; a heuristic that can never act is a
        warning (stderr), once per run."""
        layers = []
        for path in self.data_layers(HEURISTICS_FILE):
            doc = load_yaml(path)
            layers.append((doc, path, heuristic_hooks(doc, path)))
        warnings: list[str] = []
        found = heuristics_from_layers(layers, warnings)
        for warning in warnings:
            print(warning, file=sys.stderr)
        return found


def heuristic_hooks(doc, path: Path) -> dict[str, tuple]:
    """The predicate hooks of an op_priority_heuristics.yaml: the functions
    marked `@hook` in the module its `hooks:` key names (beside it), else in
    op_priority_heuristics.py beside it, if there is one. Each is typed
    `(op: ir.Operation) -> bool`; name -> (predicate, where it is defined)."""
    named = doc.get("hooks") if isinstance(doc, dict) else None
    if named is not None and not isinstance(named, str):
        raise doc.loc_of("hooks").error("'hooks' names a Python file beside this one")
    module_path = path.parent / (named or path.with_suffix(".py").name)
    if not module_path.is_file():
        if named is not None:
            raise doc.loc_of("hooks").error(f"no hook module '{module_path}'")
        return {}
    try:
        module = load_hook_module(module_path)
    except (Exception, SystemExit) as e:  # a broken hook module is a rule-file error, not a crash
        loc = doc.loc_of("hooks") if named is not None else doc.loc
        raise loc.error(f"cannot load hook module {module_path.name}: {type(e).__name__}: {e}") from None
    found = {}
    for name, fn in hooks_of_module(module).items():
        where = Loc(fn.__code__.co_filename, fn.__code__.co_firstlineno, 1)
        if arity(fn) != (1, 1) or inspect.signature(fn).return_annotation not in (bool, "bool"):
            raise where.error(f"predicate hook '{name}' is typed (op: ir.Operation) -> bool")
        found[name] = (_predicate_of_hook(name, fn, where), where)
    return found


def _predicate_of_hook(name: str, fn, where: Loc):
    guarded = rule_hook(name, fn)  # (it may not erase or move ops behind the engine's back)

    def predicate(op: OpView, factor: int) -> bool:
        try:
            return bool(guarded(op.operation))
        except Exception as e:  # a located error naming the hook and the op, not a traceback
            raise where.error(f"predicate hook '{name}' failed on '{op.name}' at "
                                f"{op.operation.location}: {type(e).__name__}: {e}") from None
    # Called with the op alone, it sees a factor only through other predicates;
    # it may look beyond the op's structure (uses, locations): asked per op.
    return mark(predicate, structural=False)


class DirectoryListing:
    """Every entry under a directory, found as Path.rglob finds them (each
    subdirectory, not following a symlinked one; a directory it may not read
    is skipped): one walk answers each `rglob(NAME)` and `rglob("*.yaml")` a
    run asks of it (each rglob walks the tree again, ~0.3 ms per walk)."""

    def __init__(self, directory: Path):
        self.directory = directory
        # (the entry's path components below DIRECTORY, its parent directory): sorted by the
        # components, which is the order of their Paths; a Path is made only for an entry asked for.
        found: list[tuple[tuple[str, ...], Path]] = []
        pending = [((), directory)]
        while pending:
            parts, parent = pending.pop()
            try:
                with os.scandir(parent) as scan:
                    entries = list(scan)
            except PermissionError:
                continue
            for entry in entries:
                found.append((parts + (entry.name,), parent))
                if entry.is_dir() and not entry.is_symlink():
                    pending.append((parts + (entry.name,), parent / entry.name))
        found.sort(key=lambda item: item[0])
        self._entries = found

    def named(self, name: str) -> list[Path]:
        """sorted(directory.rglob(name)) for a plain name (no wildcard): the entries called NAME."""
        return [parent / name for parts, parent in self._entries if parts[-1] == name]

    def ending_with(self, suffix: str) -> list[Path]:
        """sorted(directory.rglob("*" + suffix)): the entries whose name ends with SUFFIX."""
        return [parent / parts[-1] for parts, parent in self._entries if parts[-1].endswith(suffix)]


@cache
def builtin_listing() -> DirectoryListing:
    """The built-in rules directory's listing (its files are fixed for the process)."""
    return DirectoryListing(builtin_rules_dir())


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
