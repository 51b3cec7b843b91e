"""Hooks of mpmd-delay-inferred-fragments.

The rule file picks the fragments to delay; moving them depends on order
(last first), so the rule records them and a stage hook moves them.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.builtins import first_user_in_block
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.values import operation

_TO_DELAY = "fragments_to_delay"

is_mpmd_function = hook(mpmd.is_mpmd_function)
is_entry_point_function = hook(mpmd.is_entry_point_function)


@hook
def delay_later(ctx: RewriteContext, fragment: ir.Operation) -> None:
    """Record `fragment` for the delay stage (the `once` driver visits in program order)."""
    ctx.scratch.setdefault(_TO_DELAY, []).append(operation(fragment))
    ctx.mark_changed()  # recording is this rule's effect


@hook
def delay_in_reverse_program_order(ctx: RewriteContext) -> None:
    """Move each recorded fragment, last first, right before its first user."""
    for fragment in reversed(ctx.scratch.pop(_TO_DELAY, [])):
        first_user = first_user_in_block(fragment)
        if first_user is not None:
            fragment.move_before(first_user)
            ctx.mark_changed()
