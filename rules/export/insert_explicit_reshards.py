"""Hook of sdy-insert-explicit-reshards: the policy from the rule file's `params:`,
the mechanics in sdy_dsl/runtime/explicit_reshards.py."""
from __future__ import annotations


from sdy_dsl.diagnostics import emit_error
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.explicit_reshards import (
    AFTER_OP_GROUPS, RANKING_KEYS, UNARY_KEYS, ExplicitReshards, Policy, ReshardError)
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.op_sharding_rule import FACTOR_KINDS



def _names(data, key: str, allowed: tuple | None = None) -> tuple:
    values = data.get(key) or []
    if not isinstance(values, list):
        raise data.loc_of(key).error(f"'{key}' is a list")
    for v in values:
        if allowed is not None and v not in allowed:
            raise data.loc_of(key).error(f"'{key}': unknown entry '{v}' (expected one of: {', '.join(allowed)})")
    return tuple(str(v) for v in values)


def load_policy(data) -> Policy:
    """The policy from the pass's `params:` (merged over the pass it extends)."""
    if not isinstance(data, dict) or not data:
        return Policy()
    precedence = data.get("factor-type-precedence") or {}
    for kind in precedence:
        if kind not in FACTOR_KINDS:
            raise data.loc_of("factor-type-precedence").error(
                f"unknown factor type '{kind}' (expected one of: {', '.join(FACTOR_KINDS)})")
    missing = [k for k in FACTOR_KINDS if k not in precedence]
    if missing:
        raise data.loc_of("factor-type-precedence").error(f"missing factor types: {', '.join(missing)}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in precedence.values()):
        raise data.loc_of("factor-type-precedence").error("precedences are integers")
    after_op = _names(data, "after-op", AFTER_OP_GROUPS) or AFTER_OP_GROUPS
    if sorted(after_op) != sorted(AFTER_OP_GROUPS):
        raise data.loc_of("after-op").error(f"'after-op' orders each of: {', '.join(AFTER_OP_GROUPS)}")
    return Policy(
        full_version_ops=frozenset(_names(data, "full-version-ops")),
        full_version_if_operand_differs=frozenset(_names(data, "full-version-if-operand-sharding-differs")),
        dot_fix_ops=frozenset(_names(data, "dot-fix-ops")),
        reshape_overflow_ops=frozenset(_names(data, "reshape-overflow-ops")),
        ranking=_names(data, "candidate-ranking", RANKING_KEYS) or RANKING_KEYS,
        precedence=tuple((k, int(precedence[k])) for k in FACTOR_KINDS),
        unary_preference=_names(data, "unary-preference", UNARY_KEYS) or UNARY_KEYS,
        after_op=after_op,
    )


@hook
def insert_explicit_reshards(ctx: RewriteContext) -> None:
    """Make every op's operands and results agree factor by factor (see the module docstring)."""
    policy = ctx.run_state("insert-explicit-reshards-policy", lambda: load_policy(ctx.params))
    rules = ctx.library.op_registry.sharding_rules
    pass_ = ExplicitReshards(ctx.meshes(), policy, rules, ctx.options["enable-full-version"])
    # Callees by name, once per pass run (the pass runs per function, and cannot add or erase any).
    pass_.funcs = ctx.pass_state("functions", lambda: {
        name: op for name, op in call_graph.symbols(ctx.module).items() if op.name == "func.func"})
    try:
        pass_.run(ctx.anchor)
    except ReshardError as e:
        emit_error(e.op, str(e))
    ctx.mark_changed()
