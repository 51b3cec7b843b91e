"""The one registry of op facts: interfaces (rules/interfaces.yaml), op
sharding rules (rules/propagation/op_sharding_rules.yaml) and the op-priority
heuristics (rules/propagation/op_priority_heuristics.yaml), each the built-in
file with a user's files layered over it.

The registry is built above the runtime, by the run's rule library
(sdy_dsl/rule_library.py reads the files); the runtime only asks it. Every
consumer asks the registry of the running pass, `active()`: the rule-based
passes (through sdy_dsl.runtime.interfaces), the propagation engine, debug
info and the splitter. A run installs its own with `using(registry)`;
outside a run, the default the rule library installs (`set_default`, the
built-in rules) answers.
"""
from __future__ import annotations

import contextlib
import contextvars
from typing import Callable


class OpRegistry:
    def __init__(self, interfaces, sharding_rules, heuristics: Callable[[], list] | None = None):
        self.interfaces = interfaces  # an InterfaceRegistry
        self.sharding_rules = sharding_rules  # an OpShardingRuleRegistry
        self._heuristics = heuristics  # () -> the op-priority heuristics, asked when used

    @property
    def heuristics(self) -> list:
        """The op-priority heuristics of the run (op_priority_heuristics.yaml's layers)."""
        return self._heuristics() if self._heuristics is not None else []

    def rule_for(self, op, conservative: bool = False):
        """The op's sharding rule: its `sdy.sharding_rule`, else the registry's."""
        return self.sharding_rules.rule_for(op, conservative)


_ACTIVE: contextvars.ContextVar[OpRegistry | None] = contextvars.ContextVar("sdy_dsl_op_registry",
                                                                            default=None)
_default: Callable[[], OpRegistry] | None = None


def set_default(factory: Callable[[], OpRegistry]) -> None:
    """What answers outside a run (the rule library installs the built-in rules')."""
    global _default
    _default = factory


def active() -> OpRegistry:
    registry = _ACTIVE.get()
    if registry is None:
        if _default is None:
            raise LookupError("no op registry: run inside op_registry.using(...) or import "
                              "sdy_dsl.rule_library (the built-in rules)")
        registry = _default()
    return registry


@contextlib.contextmanager
def using(registry: OpRegistry):
    token = _ACTIVE.set(registry)
    try:
        yield registry
    finally:
        _ACTIVE.reset(token)
