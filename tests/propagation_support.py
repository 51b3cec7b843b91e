"""Test support for propagation: the C++ reference as oracle (tests only).

`reference_rule_provider` takes rules from the reference's
sdy-populate-op-sharding-rules, so propagation can be tested independently
of the Python rule registry.
"""
from __future__ import annotations

from jaxlib.mlir import ir, passmanager

from sdy_dsl.mlir_context import make_context
from sdy_dsl.passes import PassRegistry
from sdy_dsl.rule_library import builtin_library
from sdy_dsl.runtime.op_sharding_rule import SHARDING_RULE_ATTR, OpShardingRule
from sdy_dsl.runtime.propagation import Schedule, propagate
from sdy_dsl.runtime.sharding import codec

PASS_FOR = {"basic": "sdy-basic-propagate", "aggressive": "sdy-aggressive-propagate",
            "op-priority": "sdy-op-priority-propagate",
            "user-priority": "sdy-user-priority-propagate"}


def _preorder(module):
    out = []

    def visit(op):
        out.append(op.operation)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def reference_rule_provider(text: str, module, conservative: bool = False):
    """A rule provider for `module` (parsed from `text`) backed by the reference registry."""
    ref = ir.Module.parse(text)
    option = "{conservative-propagation=true}" if conservative else ""
    passmanager.PassManager.parse(
        f"builtin.module(func.func(sdy-populate-op-sharding-rules{option}))").run(ref.operation)
    rules = {}
    ours, theirs = _preorder(module), _preorder(ref)
    assert len(ours) == len(theirs)
    for mine, other in zip(ours, theirs):
        assert mine.name == other.name
        if SHARDING_RULE_ATTR in other.attributes:
            rules[mine] = OpShardingRule.from_attr(other.attributes[SHARDING_RULE_ATTR])
    return lambda op, conservative_: rules.get(op)


def run_reference(text: str, strategy: str, options: str = "") -> str:
    with make_context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(
            f"builtin.module({PASS_FOR[strategy]}{options})").run(module.operation)
        return str(module)


_PASSES = PassRegistry()


def pass_schedule(strategy: str, **options):
    """The schedule and options of a built-in propagation pass (`strategy`: a
    key of PASS_FOR; options by their Python names), read from its rule file."""
    passdef = _PASSES.get(PASS_FOR[strategy])
    values = passdef.make_options().replace(**options)
    return Schedule.from_params(passdef.params["schedule"], values, passdef.loc), values


def run_ours(text: str, strategy: str, heuristics=None, **options) -> str:
    """Propagate `text` with the `strategy` pass's schedule and the reference's rules."""
    codec.clear()
    schedule, values = pass_schedule(strategy, **options)
    with make_context():
        module = ir.Module.parse(text)
        provider = reference_rule_provider(text, module, values.conservative_propagation)
        propagate(module.operation, schedule, values, registry=builtin_library().op_registry,
                  heuristics=heuristics, rule_provider=provider)
        out = str(module)
    codec.clear()
    return out


IMPORT_PIPELINE = ("builtin.module(sdy-lift-inlined-meshes,sdy-remove-size-one-axes,"
                   "sdy-constant-or-scalar-splitter,sdy-manual-axes-cleanup,"
                   "sdy-add-data-flow-edges,sdy-apply-sharding-constraints,"
                   "sdy-sharding-group-import)")


def reference_import(text: str) -> str:
    """The module as the reference import pipeline leaves it (propagation's input)."""
    with make_context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(IMPORT_PIPELINE).run(module.operation)
        return str(module)
