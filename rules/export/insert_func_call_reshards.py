"""Hook of sdy-insert-func-call-reshards: one stage over the module's calls.

A callee's result shardings are read once per callee; the reshards a call
needs are worked out once per (callee shardings, call shardings) attributes.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, call_graph_export, interfaces
from sdy_dsl.runtime.explicit_reshards_util import is_equivalent
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SHARDING_ATTR

RESHARD = "sdy.reshard"


class _Reshards:
    def __init__(self, ctx: RewriteContext):
        self.funcs = call_graph_export.FuncTable(ctx.module)
        self.signatures = call_graph.SignatureShardings(ctx.meshes())
        self.targets: dict[tuple, list] = {}  # (expected, call attribute) -> [(result index, reshard target)]

    def expected(self, call: ir.Operation) -> tuple | None:
        """(shardings, per-value attribute) the call's results take: the callee's
        result shardings; else the call's with every axis dropped and every
        dimension closed; None when neither has any."""
        callee = self.funcs.callee(call)
        attr = self.signatures.attribute(callee, "res_attrs")
        if attr is not None:
            return self.signatures.shardings(callee, "res_attrs"), attr
        current = [interfaces.sharding_of(r) for r in call.results]
        if not any(s is not None for s in current):
            return None
        closed = [call_graph_export.fully_closed_like(s) for s in current]
        return closed, codec.sharding_per_value_attr(closed)

    def reshard_targets(self, call: ir.Operation, expected: tuple) -> list:
        """(result index, sharding attribute) of each result whose call-site
        sharding is not equivalent to the expected one: its call-site sharding
        (or the expected one fully closed)."""
        shardings, attr = expected
        key = (attr, call.attributes[SHARDING_ATTR] if SHARDING_ATTR in call.attributes else None)
        found = self.targets.get(key)
        if found is None:
            found = self.targets[key] = []
            for i, (want, result) in enumerate(zip(shardings, call.results)):
                current = interfaces.sharding_of(result)
                if not is_equivalent(want, current):
                    target = current if current is not None else call_graph_export.fully_closed_like(want)
                    found.append((i, codec.tensor_sharding_attr(target)))
        return found


@hook
def insert_func_call_reshards(ctx: RewriteContext) -> None:
    """For every call: an `sdy.reshard` right after it of each result whose
    call-site sharding differs from the callee's (every other use reads it),
    then the call takes the callee's result shardings."""
    reshards = _Reshards(ctx)
    for call in call_graph.calls_in(ctx.module):
        expected = reshards.expected(call)
        if expected is None:
            continue
        targets = reshards.reshard_targets(call, expected)
        results = list(call.results) if targets else []
        for i, target in targets:
            result = results[i]
            with ir.InsertionPoint.after(call):
                reshard = ir.Operation.create(RESHARD, results=[result.type], operands=[result],
                                              attributes={"sharding": target}, loc=call.location)
            result.replace_all_uses_except(reshard.results[0], reshard)
        attrs = call.attributes
        if targets or SHARDING_ATTR not in attrs or attrs[SHARDING_ATTR] != expected[1]:
            ctx.record_change("reshard-call" if targets else "take-callee-shardings", call)
            attrs[SHARDING_ATTR] = expected[1]
            ctx.mark_changed()
