"""Hook of sdy-populate-op-sharding-rules: the registry does the work."""
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.op_sharding_rule_registry import populate_op_sharding_rules


@hook
def populate_all_rules(ctx: RewriteContext) -> None:
    populate_op_sharding_rules(ctx.anchor, ctx.options.conservative_propagation)
    ctx.mark_changed()
