"""Hooks of sdy-import-func-calls: calls into named computations.

Shares `recursive_callee` with sdy-flatten-call-graph and `add_data_flow_edge`
with sdy-add-data-flow-edges (their built-in hook modules).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.diagnostics import emit_error, emit_warning
from sdy_dsl.hooks import hook, load_hook_module
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.resources import builtin_rules_dir
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.call_graph import CallGraph
from sdy_dsl.runtime.op_schema import attribute_names
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SHARDING_ATTR, operation

recursive_callee = load_hook_module(builtin_rules_dir() / "import" / "flatten_call_graph.py").recursive_callee
add_data_flow_edge = load_hook_module(builtin_rules_dir() / "import" / "add_data_flow_edges.py").add_data_flow_edge

NAMED_COMPUTATION = "sdy.named_computation"
RETURN = "sdy.return"
EXECUTION_THREAD = "execution_thread"


class _Imported:
    """Per run: the named computation that took each callee's body (by callee name)."""

    def __init__(self):
        self.first: dict[str, ir.Operation] = {}
        self.warned = False


def _imported(ctx: RewriteContext) -> _Imported:
    return ctx.run_state("imported", _Imported)


@hook
def body_was_imported(ctx: RewriteContext, name: str) -> bool:
    """Whether the body of function `name` moved into a named computation."""
    return name in _imported(ctx).first


@hook
def import_calls_callees_first(ctx: RewriteContext) -> None:
    """Every call (callees' calls first) becomes a named computation."""
    graph = CallGraph(ctx.module)
    table = ir.SymbolTable(ctx.module)
    for func in graph.post_order():
        for call in graph.calls_of(func):
            _import_call(ctx, call, operation(table[call_graph.callee_name(call)]))


def _import_call(ctx: RewriteContext, call: ir.Operation, callee: ir.Operation) -> None:
    state = _imported(ctx)
    name = call_graph.callee_name(call)
    first = state.first.get(name)
    if first is None and not call_graph.has_body(callee):
        emit_error(call, f"'{NAMED_COMPUTATION}' op region #0 ('body') failed to verify constraint: "
                         f"region with 1 blocks")
    inherent = attribute_names(call.name) or frozenset()
    attributes = {key: call.attributes[key] for key in call.attributes
                  if key not in inherent and key != SHARDING_ATTR}
    attributes["name"] = ir.StringAttr.get(call_graph.original_name(callee))
    in_shardings = call_graph.function_shardings(callee, "arg_attrs", ctx.meshes())
    if in_shardings is not None:
        attributes["in_shardings"] = codec.sharding_per_value_attr(in_shardings)
    if SHARDING_ATTR in call.attributes:
        attributes["out_shardings"] = call.attributes[SHARDING_ATTR]
    if EXECUTION_THREAD in callee.attributes:
        attributes[EXECUTION_THREAD] = callee.attributes[EXECUTION_THREAD]
    named = ctx.create_op(NAMED_COMPUTATION, [r.type for r in call.results], list(call.operands),
                          attributes, regions=1, before=call, loc=call.location)
    if first is None:
        for block in list(callee.regions[0].blocks):
            block.append_to(named.regions[0])
        _returns_to_sdy_returns(named)
        state.first[name] = named
    else:
        if not state.warned:
            state.warned = True
            emit_warning(call, f"function @{name} has multiple call ops, we need to clone the function "
                               f"body for each call")
        copy = first.clone(ip=ir.InsertionPoint(call))  # a deep copy, only for its body
        for block in list(copy.regions[0].blocks):
            block.append_to(named.regions[0])
        copy.erase()  # now empty and unused
    ctx.replace_op(call, list(named.results))


def _returns_to_sdy_returns(named: ir.Operation) -> None:
    """The terminator of each block of `named` becomes an `sdy.return` of the same values."""
    for block in named.regions[0].blocks:
        terminator = operation(list(block.operations)[-1])
        with ir.InsertionPoint(terminator):
            ir.Operation.create(RETURN, operands=list(terminator.operands), loc=terminator.location)
        terminator.erase()
