"""The debug-info hooks of rule-file passes (sdy-apply-sharding-constraints
with debug-sharding-origins / debug-propagation-edge-sharding): one
ShardingDebugInfo per pass run (sdy_dsl/runtime/debug_info.py, shared with
the propagation engine), seeded, updated and saved from the rule file.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..hooks import hook
from ..runtime import interfaces
from ..runtime.debug_info import (PROPAGATION_EDGES_OPTION, SHARDING_ORIGINS_OPTION,
                                  ShardingDebugInfo, factor_axes, projection_changed)
from ..runtime.op_sharding_rule import OpShardingRule
from ..runtime.sharding import TensorSharding, codec
from ..runtime.sharding_projection import ShardingProjection
from ..runtime.values import operation
from .context import RewriteContext


def debug_info_of(ctx: RewriteContext) -> ShardingDebugInfo:
    """The collector of a rule-file pass run (in the run's state), from its debug options."""
    return ctx.run_state(ShardingDebugInfo.SCRATCH_KEY, lambda: ShardingDebugInfo(
        bool(ctx.options.get(SHARDING_ORIGINS_OPTION, False)),
        bool(ctx.options.get(PROPAGATION_EDGES_OPTION, False))))


def _as_sharding(s) -> TensorSharding | None:
    if s is None or isinstance(s, TensorSharding):
        return s
    return codec.tensor_sharding(s)


@hook
def seed_debug_info(ctx: RewriteContext) -> None:
    """Stage hook: name the constraints / manual computations and record the user
    shardings' origins (with debug-sharding-origins)."""
    debug_info_of(ctx).seed_origins(ctx.module)


@hook
def record_sharding_update(ctx: RewriteContext, op: ir.Operation,
                           old_operand_shardings: list[ir.Attribute | TensorSharding | None],
                           old_result_shardings: list[ir.Attribute | TensorSharding | None] | None = None) -> None:
    """`op`'s operands (results) had `old_operand_shardings` (`old_result_shardings`;
    none: unchanged) before an update and have their current shardings now: record
    the update under `op`'s sharding rule (nothing if it has none, or if its sharding
    projection did not change)."""
    info = debug_info_of(ctx)
    if not info.enabled:
        return
    op = operation(op)
    rule = (OpShardingRule.from_attr(op.attributes["sdy.sharding_rule"])
            if "sdy.sharding_rule" in op.attributes else ctx.library.op_registry.rule_for(op))
    if rule is None:
        return
    operands, results = list(op.operands), list(op.results)
    new_operands = [interfaces.sharding_of(v) for v in operands]
    new_results = [interfaces.sharding_of(v) for v in results]
    old_operands = [_as_sharding(s) for s in old_operand_shardings]
    old_results = new_results if old_result_shardings is None else [_as_sharding(s) for s in old_result_shardings]
    known = next((s for s in new_operands + new_results + old_operands + old_results if s is not None), None)
    if known is None:
        return
    mesh = ctx.meshes().mesh_of(known)
    old = ShardingProjection.build(old_operands, old_results, rule, mesh)
    new = ShardingProjection.build(new_operands, new_results, rule, mesh)
    if projection_changed(old, new):
        info.record_update(op, operands, results, rule, mesh, factor_axes(old), new)


@hook
def save_debug_info(ctx: RewriteContext) -> None:
    """Stage hook: write the collected origins / edges onto the module."""
    info = debug_info_of(ctx)
    if info.enabled:
        info.save(ctx.module)
        ctx.mark_changed()
