"""Hook of sdy-insert-explicit-reshards: the policy from the rule file's `params:`,
the mechanics in sdy_dsl/runtime/insert_explicit_reshards.py (the driver),
reshard_placement.py and explicit_reshards_util.py."""
from __future__ import annotations


from sdy_dsl.diagnostics import emit_error
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.explicit_reshards_util import (CONTRACTING_CHOICES, FACTOR_TYPES, ContractingChoice, Policy,
                                                    ReshardError)
from sdy_dsl.runtime.insert_explicit_reshards import ExplicitReshards, PassCache
from sdy_dsl.runtime.interfaces import check_op_name
from sdy_dsl.runtime.op_predicates import NoLoc, PredicateScope, parse_predicate, unknown

CONTRACTING_KEYS = ("ops", "when", "contracting")


def load_policy(params) -> Policy:
    """The policy from the pass's params (one typed object: its `params:`, merged
    over the pass it extends, checked against its `param-types:` when it loads)."""
    def names(values) -> tuple:
        return tuple(str(v) for v in values)

    return Policy(
        full_version_ops=frozenset(names(params.full_version_ops)),
        full_version_if_operand_differs=frozenset(names(params.full_version_if_operand_sharding_differs)),
        ranking=names(params.candidate_ranking),
        precedence=tuple((k, int(params.factor_type_precedence[k])) for k in FACTOR_TYPES),
        unary_preference=names(params.unary_preference),
        after_op=names(params.after_op),
        contracting=contracting_choices(params.contracting_dimensions or []),
    )


def contracting_choices(entries) -> tuple:
    """`contracting-dimensions: [{ops: [NAMES], when: PREDICATE, contracting: all-reduce | all-gather}]`
    (`when:` optional: the op predicates of runtime/op_predicates.py), with located errors."""
    locs = getattr(entries, "item_locs", [getattr(entries, "loc", None) or NoLoc()] * len(entries))
    scope = PredicateScope({}, what="op predicate")
    found = []
    for entry, loc in zip(entries, locs):
        if not isinstance(entry, dict) or "ops" not in entry or "contracting" not in entry:
            raise loc.error("an entry of 'contracting-dimensions' is {ops: [OP NAMES], when: PREDICATE "
                            "(optional), contracting: all-reduce | all-gather}")
        for key in entry:
            if key not in CONTRACTING_KEYS:
                raise entry.key_loc(key).error(unknown("key", key, CONTRACTING_KEYS))
        ops = [entry["ops"]] if isinstance(entry["ops"], str) else entry["ops"]
        if not isinstance(ops, list) or not ops:
            raise entry.loc_of("ops").error("'ops' is an op name or a list of them")
        for name in ops:
            check_op_name(str(name), getattr(name, "loc", None) or entry.loc_of("ops"))
        choice = str(entry["contracting"])
        if choice not in CONTRACTING_CHOICES:
            raise entry.loc_of("contracting").error(unknown("contracting choice", choice, CONTRACTING_CHOICES))
        when = parse_predicate(entry["when"], entry.loc_of("when"), scope) if "when" in entry else None
        found.append(ContractingChoice(frozenset(map(str, ops)), when, choice))
    return tuple(found)


@hook
def insert_explicit_reshards(ctx: RewriteContext) -> None:
    """Make every op's operands and results agree factor by factor (see the module docstring)."""
    # One driver for the pass run's functions: the policy, the callees by name (the
    # pass adds or erases none), rules by op structure and what else they share.
    pass_ = ctx.pass_state("insert-explicit-reshards", lambda: _driver(ctx))
    try:
        pass_.run(ctx.anchor)
    except ReshardError as e:
        emit_error(e.op, str(e))
    ctx.mark_changed()


def _driver(ctx: RewriteContext) -> ExplicitReshards:
    policy = load_policy(ctx.params)
    pass_ = ExplicitReshards(ctx.meshes(), policy, ctx.library.op_registry.sharding_rules,
                             ctx.options.enable_full_version)
    pass_.funcs = {name: op for name, op in call_graph.symbols(ctx.module).items() if op.name == "func.func"}
    pass_.cache = PassCache(pass_._table, policy)
    return pass_
