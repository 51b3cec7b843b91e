"""Hooks: small, named, typed Python functions that rule files call by name.

A rule file `rules/<group>/<pass>.yaml` may have a hook module beside it
(`<pass>.py`, or the file named by its `hooks:` key). Functions in it marked
with `@hook` are callable from the rule file's `where:` constraints and
actions. A hook is typed: every parameter and the return value carry an
annotation (checked when `@hook` runs, so a hook module with an untyped hook
fails to load, with the rule file's location). Calls are checked for arity
when the rule file loads, so a wrong call fails before any IR is touched.
"""
from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from inspect import CO_VARARGS, CO_VARKEYWORDS
from pathlib import Path
from types import FunctionType
from typing import Callable

HOOK_MARK = "__sdy_hook_name__"
PURE_MARK = "__sdy_pure__"


def hook(fn: Callable | None = None, *, name: str | None = None, pure: bool = False):
    """Mark a function as a hook, registered under `name` (default: its own).
    `pure`: for the rest of the stage that calls it, equal arguments give
    equal results, and a repeated call does nothing more (docs/rule-language.md)."""

    def register(f: Callable) -> Callable:
        untyped = missing_annotations(f)
        if untyped:
            code = f.__code__
            raise TypeError(f"hook '{name or f.__name__}' ({Path(code.co_filename).name}:{code.co_firstlineno}) "
                            f"must annotate {', '.join(untyped)}")
        setattr(f, HOOK_MARK, name or f.__name__)
        if pure:
            setattr(f, PURE_MARK, True)
        return f

    return register(fn) if fn is not None else register


def missing_annotations(fn: Callable) -> list[str]:
    """The parameters (and `return`) of `fn` that have no type annotation."""
    if isinstance(fn, FunctionType) and not hasattr(fn, "__wrapped__") and "__signature__" not in vars(fn):
        # (a plain function: its parameters read from its code, see `parameters`;
        # ~85 hooks are checked at every start-up)
        annotations = fn.__annotations__
        return [name for name, _, _ in parameters(fn) if name not in annotations] + \
            ([] if "return" in annotations else ["return"])
    sig = inspect.signature(fn)
    missing = [p.name for p in sig.parameters.values() if p.annotation is p.empty]
    if sig.return_annotation is sig.empty:
        missing.append("return")
    return missing


def hooks_of_module(module) -> dict[str, Callable]:
    """The hooks a module defines, by registered name."""
    found = {}
    for value in vars(module).values():
        hook_name = getattr(value, HOOK_MARK, None)
        if hook_name is not None and callable(value):
            found[hook_name] = value
    return found


_loaded_modules: dict[Path, object] = {}
_real_directories: dict[Path, str] = {}  # a hook module's directory -> its real path


def _real_path(path: Path) -> Path:
    """path.resolve(), the directory's part resolved once per directory (the
    hook modules of a run sit in a few directories; resolving costs a stat per
    component of the path)."""
    if path.name in ("", ".", "..") or path.is_symlink():
        return path.resolve()
    directory = path.parent
    if not directory.is_absolute():  # (relative to a working directory that may change)
        return Path(os.path.realpath(directory), path.name)
    if directory not in _real_directories:
        _real_directories[directory] = os.path.realpath(directory)
    return Path(_real_directories[directory], path.name)


def load_hook_module(path: Path):
    """Import a hook module from a file path (once per path)."""
    path = _real_path(Path(path))
    if path in _loaded_modules:
        return _loaded_modules[path]
    module_name = "sdy_dsl_hooks." + "_".join(path.with_suffix("").parts[-3:]).replace("-", "_")
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    _loaded_modules[path] = module
    return module


def parameters(fn: Callable) -> list[tuple[str, inspect._ParameterKind, bool]]:
    """(name, kind, has a default) of each parameter, as inspect.signature(fn) lists
    them; a plain function's (through functools.wraps wrappers) read from its code:
    a Signature costs ~30 us, and every hook and builtin is asked at every start-up."""
    target = fn
    while type(target) is FunctionType and "__signature__" not in vars(target) and hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    if type(target) is not FunctionType or "__signature__" in vars(target):
        return [(p.name, p.kind, p.default is not p.empty) for p in inspect.signature(fn).parameters.values()]
    code, P = target.__code__, inspect.Parameter
    positional, keyword_only, names = code.co_argcount, code.co_kwonlyargcount, code.co_varnames
    first_default = positional - len(target.__defaults__ or ())
    found = [(name, P.POSITIONAL_ONLY if i < code.co_posonlyargcount else P.POSITIONAL_OR_KEYWORD, i >= first_default)
             for i, name in enumerate(names[:positional])]
    rest = positional + keyword_only
    if code.co_flags & CO_VARARGS:
        found.append((names[rest], P.VAR_POSITIONAL, False))
        rest += 1
    keyword_defaults = target.__kwdefaults__ or {}
    found += [(name, P.KEYWORD_ONLY, name in keyword_defaults) for name in names[positional:positional + keyword_only]]
    if code.co_flags & CO_VARKEYWORDS:
        found.append((names[rest], P.VAR_KEYWORD, False))
    return found


def arity(fn: Callable) -> tuple[int, int | None]:
    """(min, max) number of positional arguments; max None when variadic."""
    lo, hi = 0, 0
    for _, kind, has_default in parameters(fn):
        if kind is inspect.Parameter.VAR_POSITIONAL:
            hi = None
        elif kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            if hi is not None:
                hi += 1
            if not has_default:
                lo += 1
    return lo, hi
