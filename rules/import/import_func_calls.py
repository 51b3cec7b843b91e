"""Hooks of sdy-import-func-calls: calls into named computations.

Shares `call_graph_of` / `reject_recursive_calls` with sdy-flatten-call-graph
(its built-in hook module); edges are added as sdy-add-data-flow-edges adds them. Each stage is one hook over the module: the graph is built once,
and the per-call work reads attributes, not decoded shardings, where it can.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from sdy_dsl.diagnostics import emit_error, emit_warning
from sdy_dsl.hooks import hook, load_hook_module
from sdy_dsl.interp.builtins import is_static_shaped
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.resources import builtin_rules_dir
from sdy_dsl.runtime import call_graph, interfaces
from sdy_dsl.runtime.op_schema import attribute_names
from sdy_dsl.runtime.values import SHARDING_ATTR, block_terminator, operation, ops_named

_flatten = load_hook_module(builtin_rules_dir() / "import" / "flatten_call_graph.py")
call_graph_of, reject_recursive_calls = _flatten.call_graph_of, _flatten.reject_recursive_calls

NAMED_COMPUTATION = "sdy.named_computation"
RETURN = "sdy.return"
DATA_FLOW_EDGE = "sdy.data_flow_edge"
EXECUTION_THREAD = "execution_thread"


class _Imported:
    """Per run: the named computation that took each callee's body (by callee name)."""

    def __init__(self, ctx: RewriteContext):
        self.first: dict[str, ir.Operation] = {}
        self.callees: dict[str, ir.Operation] = {}
        self.warned = False
        self.signatures = call_graph.SignatureShardings(ctx.meshes())
        self.inherent: dict[str, frozenset] = {}  # call op name -> its inherent attribute names


def _imported(ctx: RewriteContext) -> _Imported:
    return ctx.run_state("imported", lambda: _Imported(ctx))


@hook
def import_calls_callees_first(ctx: RewriteContext) -> None:
    """Every call (callees' calls first) becomes a named computation."""
    graph = call_graph_of(ctx)
    state = _imported(ctx)
    for func in graph.post_order():
        for call, name in graph.call_sites(func):
            ctx.record_change("import", call)
            _import_call(state, call, name, graph.symbols[name], graph.node(name) is not None)
    ctx.mark_changed()


@hook
def erase_imported_callees(ctx: RewriteContext) -> None:
    """Each function whose body moved into a named computation is erased."""
    for callee in _imported(ctx).callees.values():
        callee.erase()


def _import_call(state: _Imported, call: ir.Operation, name: str, callee: ir.Operation, has_body: bool) -> None:
    first = state.first.get(name)
    if first is None and not has_body:
        emit_error(call, f"'{NAMED_COMPUTATION}' op region #0 ('body') failed to verify constraint: "
                         f"region with 1 blocks")
    op_name = call.name
    inherent = state.inherent.get(op_name)
    if inherent is None:
        inherent = state.inherent[op_name] = (attribute_names(op_name) or frozenset()) | {SHARDING_ATTR}
    call_attrs = call.attributes
    attributes = {key: value for key, value in call_attrs.items() if key not in inherent}
    callee_attrs = callee.attributes
    attributes["name"] = callee_attrs[call_graph.ORIGINAL_FUNC_NAME if call_graph.ORIGINAL_FUNC_NAME in callee_attrs
                                      else "sym_name"]
    in_shardings = state.signatures.attribute(callee, "arg_attrs")
    if in_shardings is not None:
        attributes["in_shardings"] = in_shardings
    if SHARDING_ATTR in call_attrs:
        attributes["out_shardings"] = call_attrs[SHARDING_ATTR]
    if EXECUTION_THREAD in callee_attrs:
        attributes[EXECUTION_THREAD] = callee_attrs[EXECUTION_THREAD]
    results = list(call.results)
    named = ir.Operation.create(NAMED_COMPUTATION, results=[r.type for r in results],
                                operands=list(call.operands), attributes=attributes, regions=1,
                                loc=call.location, ip=ir.InsertionPoint(call))
    if first is None:
        for block in list(callee.regions[0].blocks):
            block.append_to(named.regions[0])
        _returns_to_sdy_returns(named)
        state.first[name] = named
        state.callees[name] = callee
    else:
        if not state.warned:
            state.warned = True
            emit_warning(call, f"function @{name} has multiple call ops, we need to clone the function "
                               f"body for each call")
        copy = first.clone(ip=ir.InsertionPoint(call))  # a deep copy, only for its body
        for block in list(copy.regions[0].blocks):
            block.append_to(named.regions[0])
        copy.erase()  # now empty and unused
    for old, new in zip(results, named.results):
        old.replace_all_uses_with(new)
    call.erase()


def _returns_to_sdy_returns(named: ir.Operation) -> None:
    """The terminator of each block of `named` becomes an `sdy.return` of the same values."""
    for block in named.regions[0].blocks:
        terminator = block_terminator(block)
        ir.Operation.create(RETURN, operands=list(terminator.operands), loc=terminator.location,
                            ip=ir.InsertionPoint(terminator))
        terminator.erase()


@hook
def add_edges_to_named_computations(ctx: RewriteContext) -> None:
    """With `add-data-flow-edges-on-named-computations`, every named computation
    gets data-flow edges as sdy-add-data-flow-edges would give it: on each owner
    with a static shape, in the owners' order right after the named computation
    (results) or at the start of its body (block arguments), with the owner's
    sharding; every other use of the owner goes through its edge."""
    if not ctx.options["add-data-flow-edges-on-named-computations"]:
        return
    table = interfaces.table()
    in_attr = table.of(NAMED_COMPUTATION).block_args.attr
    out_attr = table.result_slot(NAMED_COMPUTATION).attr
    static: dict[ir.Type, bool] = {}  # type -> whether it is a static shape
    # (In post-order: each computation's edges go right after it or first in its
    # own body, whichever computation is done first.)
    for named in ops_named(ctx.module, [NAMED_COMPUTATION], pre_order=False):
        attrs = named.attributes
        block = named.regions[0].blocks[0]
        first = next(iter(block.operations), None)
        # (a result's location is its op's: asked once per named computation)
        for slot, values, point, loc in (
                (out_attr, named.results, ir.InsertionPoint.after(named), named.location),
                (in_attr, block.arguments,
                 ir.InsertionPoint(operation(first)) if first is not None else ir.InsertionPoint(block), None)):
            shardings = sdy.TensorShardingPerValueAttr(attrs[slot]).shardings if slot in attrs else None
            for i, value in enumerate(values):
                t = value.type
                if t not in static:
                    static[t] = is_static_shaped(value)
                if static[t]:
                    _add_edge(value, t, point, loc or value.location, shardings[i] if shardings is not None else None)
    ctx.mark_changed()


def _add_edge(owner: ir.Value, owner_type: ir.Type, point: ir.InsertionPoint, loc: ir.Location,
              sharding: ir.Attribute | None) -> None:
    """`sdy.data_flow_edge` of `owner` (with `sharding`) at `point`; every other use of `owner` uses it."""
    edge = ir.Operation.create(DATA_FLOW_EDGE, results=[owner_type], operands=[owner],
                               attributes=None if sharding is None else {"sharding": sharding}, loc=loc, ip=point)
    owner.replace_all_uses_except(edge.result, edge)
