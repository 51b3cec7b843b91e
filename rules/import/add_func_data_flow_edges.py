"""Hooks of sdy-add-func-data-flow-edges: the main function, building edges."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, interfaces
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SHARDING_ATTR, operation

EDGE = "sdy.func_data_flow_edge"


def _functions(ctx: RewriteContext) -> list[ir.Operation]:
    return ctx.run_state("functions", lambda: [f for f in call_graph.symbols(ctx.module).values()
                                                if call_graph.is_function(f)])


def _main_function(ctx: RewriteContext) -> ir.Operation | None:
    """The only function of the module, else the one named `main` (None if neither): once per
    run (asked for every function; the pass adds no function)."""
    return ctx.run_state("main-function", lambda: _find_main_function(ctx))


def _find_main_function(ctx: RewriteContext) -> ir.Operation | None:
    functions = _functions(ctx)
    if len(functions) == 1:
        return functions[0]
    main = call_graph.symbols(ctx.module).get("main")
    return main if main is not None and call_graph.is_function(main) else None


@hook
def has_main_function(ctx: RewriteContext) -> bool:
    return _main_function(ctx) is not None


@hook
def is_main_function(ctx: RewriteContext, func: ir.Operation) -> bool:
    return _main_function(ctx) == operation(func)


@hook
def is_first_function(ctx: RewriteContext, func: ir.Operation) -> bool:
    functions = _functions(ctx)
    return bool(functions) and functions[0] == operation(func)


@hook
def body_arguments(func: ir.Operation) -> list:
    """The arguments of a function's body (none for a declaration)."""
    return list(func.regions[0].blocks[0].arguments) if call_graph.has_body(func) else []


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
    ctx.mark_changed()
