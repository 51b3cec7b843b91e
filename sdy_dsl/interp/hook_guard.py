"""What a hook may do to the IR through the raw MLIR API (docs/rule-language.md, "Hooks").

A hook called from a rule's `where:` / `rewrite:` runs while a driver holds
the op being rewritten, its ancestors and (under the MLIR drivers) its place
in a walk; a stage hook runs while the pass holds its anchor (and, for a
`func.func` pass, the other functions still to run). Erasing or moving such
an op behind the driver's back leaves it with freed memory: the process would
die of SIGSEGV. While a hook runs, `erase`, `move_before`, `move_after` and
`detach_from_parent` of `ir.Operation` / `ir.OpView` check first:

- in a rule hook, an op attached to the IR may only change place or go
  through the context's actions (ctx.erase, ctx.replace_op, ctx.move), which
  the driver knows about;
- in a stage hook, only ops strictly inside the anchor may be erased or moved.

A violation raises HookContractError (an ActionError) before anything
changes: the pass stops with a located error naming the hook.
"""
from __future__ import annotations

import contextlib
import functools
from typing import Callable

from jaxlib.mlir import ir

from .context import _TRUSTED, ActionError, printed_location, trusted  # noqa: F401  (trusted: the context's)

_frames: list[tuple[str, str]] = []  # (kind "rule" | "stage", hook name)
_anchors: list = []  # the anchors the running passes hold
_where: list = []  # their messages' location_text
# The parent of the op a stage hook last erased or moved, found inside the anchor:
# its other children need no walk up to the anchor (a hook erases thousands of
# siblings). Forgotten when a frame starts or ends and when a detached op with
# regions is erased (it may hold this one; an attached op's own parent, the one
# remembered after it, is not inside it). An op freed behind the guard's back (an erasure
# through the context or MLIR) can only leave it naming an op the hook made since:
# never one the driver holds.
_known_inside: list = [None]


class HookContractError(ActionError):
    """A hook erased or moved an op the driver holds through the raw MLIR API."""


def _parent(op) -> ir.Operation | None:
    """The op holding `op`, None for a detached (or top-level) op."""
    try:
        return op.parent
    except ValueError:  # "Detached operations have no parent"
        return None


def _inside(op, anchor: ir.Operation, parent=False) -> bool:
    """Whether `anchor` strictly contains `op` (`parent`: op's parent, if known).
    (Ops and op views compare by the op they stand for: no view is unwrapped.)"""
    if parent is False:
        parent = _parent(op)
    try:
        while parent is not None:
            if parent == anchor:
                return True
            parent = parent.parent
    except ValueError:  # an ancestor is detached
        pass
    return False


def _check(op, what: str) -> None:
    op = op.operation  # (an op view's `name` may be its symbol's)
    kind, name = _frames[-1]
    parent = _parent(op)  # (asked once: a stage hook may erase thousands of ops)
    known = _known_inside[0]
    if kind == "stage" and parent is not None and known is not None and parent == known:
        return  # (the op's own parent: erasing or moving the op leaves it where it is)
    _check_walk(op, what, kind, name, parent)


def _check_walk(op: ir.Operation, what: str, kind: str, name: str, parent) -> None:
    anchor = _anchors[-1] if _anchors else None
    if parent is None and (anchor is None or not (op == anchor or _inside(anchor, op))):
        if what == "erase" and _known_inside[0] is not None and len(op.regions):
            _known_inside[0] = None  # (it may hold the parent remembered)
        return  # a detached op (e.g. one the hook built) is the hook's own
    if kind == "rule":
        raise HookContractError(
            f"hook '{name}' tried to {what} {op_text(op)} through the raw MLIR API while the driver holds the "
            f"IR; a hook called from a rule changes ops only through the context's actions "
            f"(ctx.erase, ctx.replace_op, ctx.move)")
    if anchor is None or not _inside(op, anchor, parent):
        where = "the anchor of the pass" if op == anchor else f"not inside the {anchor.name} the pass runs on"
        raise HookContractError(
            f"refused to {what} {op_text(op)} ({where}) through the raw MLIR API; a stage hook "
            f"erases or moves only ops inside its anchor")
    _known_inside[0] = parent


def _guarded(cls, method: str, what: str) -> None:
    original = getattr(cls, method)

    def call(self, *args, **kwargs):
        if _frames and not _TRUSTED[0]:  # (checked here: most calls are outside hooks or trusted)
            _check(self, what)
        return original(self, *args, **kwargs)
    call.__name__ = method
    call.__doc__ = original.__doc__
    setattr(cls, method, call)


for _cls in (ir.Operation, ir.OpView):
    for _method, _what in (("erase", "erase"), ("move_before", "move"), ("move_after", "move"),
                           ("detach_from_parent", "detach")):
        if hasattr(_cls, _method):
            _guarded(_cls, _method, _what)


@contextlib.contextmanager
def running_on(anchor: ir.Operation, location_text: Callable[[ir.Operation], str] = printed_location):
    """A pass runs on `anchor`: its hooks must leave it (and its ancestors) in
    place; `location_text(op)`: how messages name an op's place (the driver's)."""
    _anchors.append(anchor)
    _where.append(location_text)
    _known_inside[0] = None
    try:
        yield
    finally:
        _anchors.pop()
        _where.pop()
        _known_inside[0] = None


def op_text(op: ir.Operation) -> str:
    where = _where[-1] if _where else printed_location
    return f"'{op.name}' at {where(op)}"


@contextlib.contextmanager
def stage_hook(name: str):
    """A stage hook runs (on the innermost anchor of running_on)."""
    _frames.append(("stage", name))
    _known_inside[0] = None
    try:
        yield
    finally:
        _frames.pop()
        _known_inside[0] = None


def rule_hook(name: str, fn: Callable) -> Callable:
    """`fn`, called from a rule, with the rule-hook contract checked."""
    @functools.wraps(fn)
    def call(*args):
        _frames.append(("rule", name))
        try:
            return fn(*args)
        finally:
            _frames.pop()
    return call
