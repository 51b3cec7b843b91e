"""The pass registry: the passes of a run's rule library, by name.

Built-in rule files live in `rules/<group>/*.yaml` (a file is a pass's rule
file when its top-level mapping has `pass:`). `--rules DIR` adds a user's
directory on top: a pass defined there replaces the built-in one of the same
name, or `extends:` it (see docs/rule-language.md). Data files in DIR
(interfaces.yaml, op_sharding_rules.yaml, op_priority_heuristics.yaml) are
merged over the built-in ones per entry. All of it is resolved once, by the
run's RuleLibrary (sdy_dsl/rule_library.py).
"""
from __future__ import annotations

from pathlib import Path

from .errors import UsageError
from .interp.rulefile import PassDef, load_rule_file
from .rule_library import RuleLibrary

# Passes that MLIR itself provides (run through its PassManager).
GENERIC_MLIR_PASSES = ("inline", "symbol-dce", "canonicalize", "cse", "symbol-privatize",
                       "loop-invariant-code-motion", "sccp", "strip-debuginfo")


class PassRegistry:
    def __init__(self, rule_dirs: list[Path] | None = None, include_builtin: bool = True,
                 library: RuleLibrary | None = None):
        self.library = library or RuleLibrary(rule_dirs or [], include_builtin)
        self.files: dict[str, Path] = self.library.pass_files
        self._loaded: dict[Path, PassDef] = {}

    def names(self) -> list[str]:
        return sorted(name for name in self.files if not self.get(name).abstract)

    def has(self, name: str) -> bool:
        return name in self.files

    def get(self, name: str) -> PassDef:
        if name not in self.files:
            raise UsageError(f"unknown pass '{name}'")
        return self._load(self.files[name])

    def _load(self, path: Path) -> PassDef:
        if path not in self._loaded:
            self._loaded[path] = None  # loading: an `extends:` cycle comes back here
            self._loaded[path] = load_rule_file(path, base_of=self._base_of,
                                                doc=self.library.take_document(path))
        elif self._loaded[path] is None:
            raise UsageError(f"'extends' cycle through {path}")
        return self._loaded[path]

    def unused_tuning(self, run: list[PassDef]) -> list[str]:
        """Warnings (`file:line:col: warning: ...`) for what a user's rules
        directory tunes and the run never reads: a file that redefines or
        extends a pass the run does not execute (nor build on), and a param
        it sets that every pass the run builds on it sets again (e.g. the
        `schedule` of sdy-aggressive-propagate under sdy-user-priority-propagate)."""
        # Each file the run reads: the run's passes and every file below them (`extends:`),
        # with, per run pass, the files above it in that chain (they override it).
        read: dict[Path, list[tuple[PassDef, list[PassDef]]]] = {}
        for passdef in {id(p): p for p in run}.values():
            chain, below = [], passdef
            while below is not None:
                read.setdefault(below.path, []).append((passdef, list(chain)))
                chain.append(below)
                below = below.base
        run_names = list(dict.fromkeys(p.name for p in run))
        warnings = []
        for name, layers in self.library.pass_layers.items():
            for depth, path in enumerate(layers):
                if not self.library.is_user_file(path):
                    continue
                tuned = self._load(path)
                if depth == 0:
                    continue  # a pass of the user's own, not tuning one: run or not, as the user likes
                if path not in read:
                    why = (f"its definition in {layers[-1]} replaces this file" if name in run_names
                           else f"the run executes: {', '.join(run_names) or 'no rule pass'}")
                    warnings.append(f"{tuned.loc}: warning: this file tunes '{name}', which the run never "
                                    f"executes nor builds on ({why})")
                    continue
                for key in tuned.own_params:
                    overriders = [next(a for a in reversed(above) if key in a.own_params)
                                  for _, above in read[path] if any(key in a.own_params for a in above)]
                    if len(overriders) == len(read[path]):
                        by = overriders[0]
                        users = ", ".join(dict.fromkeys(p.name for p, _ in read[path]))
                        warnings.append(f"{tuned.own_params.key_loc(key)}: warning: param '{key}' of '{name}' is "
                                        f"shadowed: the run executes {users}, and '{by.name}' sets its own "
                                        f"'{key}' ({by.own_params.key_loc(key)})")
        return warnings

    def _base_of(self, name: str, loc, extending: Path) -> PassDef:
        """The pass a rule file `extends:`: the definition below `extending`
        when it extends its own pass (a user's file adding to a built-in pass)."""
        layers = self.library.pass_layers.get(name)
        if not layers:
            raise loc.error(f"'extends': unknown pass '{name}'")
        if extending in layers:
            below = layers[:layers.index(extending)]
            if not below:
                raise loc.error(f"'extends': no definition of '{name}' below this file")
            return self._load(below[-1])
        return self._load(layers[-1])
