"""Hooks of sdy-add-func-data-flow-edges: one stage over the functions and calls."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.builtins import is_static_shaped
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, interfaces
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SHARDING_ATTR, operation

EDGE = "sdy.func_data_flow_edge"


def _find_main(functions: list[ir.Operation]) -> ir.Operation | None:
    """The only function of the module, else the one named `main` (None if neither)."""
    if len(functions) == 1:
        return functions[0]
    return next((f for f in functions if ir.StringAttr(f.attributes["sym_name"]).value == "main"), None)


@hook
def add_edges_to_funcs_and_calls(ctx: RewriteContext) -> None:
    """Edges on the static-shaped arguments of every function with a body but
    the main one, then on the static-shaped results of every call."""
    functions = [f for f in call_graph.symbols(ctx.module).values() if call_graph.is_function(f)]
    main = _find_main(functions)
    if functions and main is None:
        ctx.emit_error(functions[0], "no function is named 'main' and the module has several; "
                                     "sdy-add-func-data-flow-edges needs the main one")
        return
    static: dict[ir.Type, bool] = {}  # type -> whether it is a static shape

    def static_shaped(values) -> list:
        found = []
        for value in values:
            t = value.type
            if t not in static:
                static[t] = is_static_shaped(value)
            if static[t]:
                found.append(value)
        return found

    for func in functions:
        if func != main and call_graph.has_body(func):
            arguments = static_shaped(func.regions[0].blocks[0].arguments)
            if arguments:
                add_func_data_flow_edges(ctx, func, arguments)
    for call in call_graph.calls_in(ctx.module):
        results = static_shaped(call.results)
        if results:
            add_func_data_flow_edges(ctx, call, results)


@hook
def add_func_data_flow_edges(ctx: RewriteContext, owner: ir.Operation, values: list) -> None:
    """`sdy.func_data_flow_edge` on each of `values` (arguments of function
    `owner`, at the start of its body; results of call `owner`, right after
    it), in order, at `owner`'s location, with the value's sharding; every
    other use of a value goes through its edge."""
    owner = operation(owner)
    if owner.regions:
        block = owner.regions[0].blocks[0]
        point = ir.InsertionPoint(operation(block.operations[0])) if len(block.operations) else ir.InsertionPoint(block)
    else:
        point = ir.InsertionPoint.after(owner)
    for value in values:
        sharding = interfaces.sharding_of(value)
        attributes = {} if sharding is None else {SHARDING_ATTR: codec.sharding_per_value_attr([sharding])}
        with point:
            edge = ir.Operation.create(EDGE, results=[value.type], operands=[value], attributes=attributes,
                                       loc=owner.location)
        value.replace_all_uses_except(edge.results[0], edge)
    if values:
        ctx.record_change("add-edges", owner)
    ctx.mark_changed()
