"""Memoized factor-propagation steps.

A step's algebra (project the shardings onto the rule's factors, run the
factor strategy, project the updated tensors back) is a pure function of the
op's sharding rule, its operand and result shardings, the factor directions,
the strategy, the conservative option and (aggressive strategy) whether the
op is elementwise. Real models repeat the same ops with the same shardings in
every layer and every optimizer update, so the memo does the algebra once per
distinct situation, not once per op visit.

The key is cheap: rules and shardings are interned to small integers, and an
object already seen is found by its identity (the sharding store hands out the
same objects again and again), so only an object never seen before is hashed.
"""
from __future__ import annotations

from typing import Callable


class Interner:
    """Equal objects -> one small integer (None -> 0). Objects are kept alive,
    so their ids stay theirs."""

    __slots__ = ("_by_id", "_by_value")

    def __init__(self):
        self._by_id: dict[int, tuple[object, int]] = {}
        self._by_value: dict[object, int] = {}

    def __call__(self, obj) -> int:
        if obj is None:
            return 0
        hit = self._by_id.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        token = self._by_value.get(obj)
        if token is None:
            token = self._by_value[obj] = len(self._by_value) + 1
        self._by_id[id(obj)] = (obj, token)
        return token


class StepMemo:
    """Step results by (rule, directions, strategy, conservative, elementwise,
    operand shardings, result shardings)."""

    MAX_ENTRIES = 200_000  # distinct situations kept; beyond, the memo starts over

    def __init__(self, is_elementwise: Callable):
        self.intern = Interner()
        self.is_elementwise = is_elementwise  # the op facts' Elementwise trait
        self._steps: dict = {}
        self.compiled: dict = {}  # (sharding tokens..., static token) -> compiled updates
        self._elementwise: dict = {}  # op or structure id -> bool, for strategies that ask (propagation
        # erases ops but creates none, so an op's key is never another op's)

    def elementwise(self, op, strategy, key=None) -> bool:
        """Whether `op` is elementwise, if `strategy` asks (kept per `key`,
        default the op: ops of one structure are elementwise alike)."""
        if not strategy.asks_elementwise or op is None:
            return False
        key = op if key is None else key
        try:
            return self._elementwise[key]
        except KeyError:
            found = self._elementwise[key] = bool(self.is_elementwise(op))
            return found

    def static_key(self, rule, directions: tuple, strategy, conservative: bool, op,
                   structure=None) -> tuple:
        """The part of a step's key fixed by everything but the shardings;
        `structure`: the op's structure id if it has one."""
        intern = self.intern
        return (intern(rule), intern(directions), strategy, conservative,
                self.elementwise(op, strategy, structure))

    def compile(self, key: tuple, updates) -> tuple:
        """Keep a step's updates [(index, sharding)] under `key` as
        ((index, sharding, its token, whether it is fully replicated), ...)."""
        if len(self.compiled) >= self.MAX_ENTRIES:
            self.compiled.clear()
        found = self.compiled[key] = tuple(
            (index, new, self.intern(new), new.is_fully_replicated) for index, new in updates)
        return found

    def step(self, compute: Callable, rule, directions: tuple, strategy, conservative: bool, op,
             operand_shardings, result_shardings):
        """`compute()`'s result, computed once per distinct key."""
        intern = self.intern
        key = (self.static_key(rule, directions, strategy, conservative, op),
               tuple([intern(s) for s in operand_shardings]),
               tuple([intern(s) for s in result_shardings]))
        try:
            return self._steps[key]
        except KeyError:
            pass
        if len(self._steps) >= self.MAX_ENTRIES:
            self._steps.clear()
        found = self._steps[key] = compute()
        return found
