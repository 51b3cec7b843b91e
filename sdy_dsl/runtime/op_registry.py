"""The one registry of op facts: interfaces (rules/interfaces.yaml) and op
sharding rules (rules/propagation/op_sharding_rules.yaml), each the built-in
file with a user's files layered over it.

Every consumer asks the registry of the running pass, `active()`: the
rule-based passes (through sdy_dsl.runtime.interfaces), the propagation
engine, debug info and the splitter. A run installs its own with
`using(registry)`; outside a run, the built-in one answers.
"""
from __future__ import annotations

import contextlib
import contextvars
from pathlib import Path


class OpRegistry:
    def __init__(self, interface_files: list[Path], rule_files: list[Path]):
        from .interfaces import InterfaceRegistry
        from .op_sharding_rule_registry import OpShardingRuleRegistry
        self.interfaces = InterfaceRegistry()
        for path in interface_files:
            self.interfaces.load(path)
        self.sharding_rules = OpShardingRuleRegistry(rule_files)

    def rule_for(self, op, conservative: bool = False):
        """The op's sharding rule: its `sdy.sharding_rule`, else the registry's."""
        return self.sharding_rules.rule_for(op, conservative)


_ACTIVE: contextvars.ContextVar[OpRegistry | None] = contextvars.ContextVar("sdy_dsl_op_registry",
                                                                            default=None)


def active() -> OpRegistry:
    registry = _ACTIVE.get()
    if registry is None:
        from ..rule_library import builtin_library
        registry = builtin_library().op_registry
    return registry


@contextlib.contextmanager
def using(registry: OpRegistry):
    token = _ACTIVE.set(registry)
    try:
        yield registry
    finally:
        _ACTIVE.reset(token)
