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
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.resources import builtin_rules_dir
from sdy_dsl.runtime import call_graph, interfaces
from sdy_dsl.runtime.op_schema import attribute_names
from sdy_dsl.runtime.values import SHARDING_ATTR, block_terminator, ops_named, tensor_type

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
        self._ctx = ctx
        self._signatures: call_graph.SignatureShardings | None = None  # made for the first callee with arg_attrs
        self.inherent: dict[str, frozenset] = {}  # call op name -> its inherent attribute names
        self.edges = _DataFlowEdges() if ctx.options["add-data-flow-edges-on-named-computations"] else None

    def in_shardings(self, callee: ir.Operation, callee_attrs) -> ir.Attribute | None:
        """The callee's argument shardings as a per-value attribute (None when it has none)."""
        if "arg_attrs" not in callee_attrs:
            return None  # (no sharding: the module's meshes need not be read)
        if self._signatures is None:
            self._signatures = call_graph.SignatureShardings(self._ctx.meshes())
        return self._signatures.attribute(callee, "arg_attrs")


def _imported(ctx: RewriteContext) -> _Imported:
    return ctx.run_state("imported", lambda: _Imported(ctx))


@hook
def add_edges_to_existing_named_computations(ctx: RewriteContext) -> None:
    """With `add-data-flow-edges-on-named-computations`, the named computations
    already in the module get their data-flow edges (before a body holding one
    is moved or copied); each imported one gets its own as it is made."""
    edges = _imported(ctx).edges
    if edges is None:
        return
    for named in ops_named(ctx.module, [NAMED_COMPUTATION], pre_order=False):
        edges.on_existing(named)
    ctx.mark_changed()


@hook
def import_calls_callees_first(ctx: RewriteContext) -> None:
    """Every call (callees' calls first) becomes a named computation."""
    graph = call_graph_of(ctx)
    state = _imported(ctx)
    for calls in graph.call_sites_callees_first():
        for call, name in calls:
            ctx.record_change("import", call)
            _import_call(state, call, name, graph.symbols[name], graph.node(name) is not None)
        for call, _ in calls:  # (now unused; erased together, the guard finds their parent inside once)
            call.erase()
    ctx.mark_changed()


@hook
def erase_imported_callees(ctx: RewriteContext) -> None:
    """Each function whose body moved into a named computation is erased."""
    for callee in _imported(ctx).callees.values():
        callee.erase()


def _import_call(state: _Imported, call: ir.Operation, name: str, callee: ir.Operation, has_body: bool) -> None:
    """A named computation right before `call` takes its place (every use of its results); the call,
    now unused, is left to the caller to erase."""
    first = state.first.get(name)
    if first is None and not has_body:
        emit_error(call, f"'{NAMED_COMPUTATION}' op region #0 ('body') failed to verify constraint: "
                         f"region with 1 blocks")
    call_attrs = call.attributes
    # (A call whose one attribute is its callee has no other: the usual case, told without listing them.)
    only_callee = len(call_attrs) == 1
    attributes = {} if only_callee else _discardable_attributes(state, call, call_attrs)
    callee_attrs = callee.attributes
    attributes["name"] = callee_attrs[call_graph.ORIGINAL_FUNC_NAME if call_graph.ORIGINAL_FUNC_NAME in callee_attrs
                                      else "sym_name"]
    in_shardings = state.in_shardings(callee, callee_attrs)
    if in_shardings is not None:
        attributes["in_shardings"] = in_shardings
    out_shardings = call_attrs[SHARDING_ATTR] if not only_callee and SHARDING_ATTR in call_attrs else None
    if out_shardings is not None:
        attributes["out_shardings"] = out_shardings
    if EXECUTION_THREAD in callee_attrs:
        attributes[EXECUTION_THREAD] = callee_attrs[EXECUTION_THREAD]
    results = call.results
    result_types = results.types
    before_call = ir.InsertionPoint(call)
    location = call.location
    named = ir.Operation.create(NAMED_COMPUTATION, results=result_types, operands=list(call.operands),
                                attributes=attributes, regions=1, loc=location, ip=before_call)
    if first is None:
        blocks = list(callee.regions[0].blocks)
        _returns_to_sdy_returns(blocks)  # (while the blocks are still the callee's: fewer ancestors to check)
        body = named.regions[0]
        for block in blocks:
            block.append_to(body)
        if state.edges is not None and blocks:
            state.edges.on_body(blocks[0], in_shardings)
        state.first[name] = named
        state.callees[name] = callee
    else:
        if not state.warned:
            state.warned = True
            emit_warning(call, f"function @{name} has multiple call ops, we need to clone the function "
                               f"body for each call")
        copy = first.clone(ip=before_call)  # a deep copy (edges included), only for its body
        for block in list(copy.regions[0].blocks):
            block.append_to(named.regions[0])
        copy.erase()  # now empty and unused
    if state.edges is not None:
        # (Right after `named` is right before the call, still there.)
        state.edges.on_results(named, result_types, out_shardings, location, before_call, results)
    else:
        for old, new in zip(results, named.results):
            old.replace_all_uses_with(new)


def _discardable_attributes(state: _Imported, call: ir.Operation, call_attrs) -> dict[str, ir.Attribute]:
    """The call's attributes but its inherent ones and its `sdy.sharding`."""
    op_name = call.name
    inherent = state.inherent.get(op_name)
    if inherent is None:
        inherent = state.inherent[op_name] = (attribute_names(op_name) or frozenset()) | {SHARDING_ATTR}
    return {key: value for key, value in call_attrs.items() if key not in inherent}


def _returns_to_sdy_returns(blocks: list[ir.Block]) -> None:
    """The terminator of each of a function's `blocks` becomes an `sdy.return` of the same values."""
    for block in blocks:
        terminator = block_terminator(block)
        ir.Operation.create(RETURN, operands=list(terminator.operands), loc=terminator.location,
                            ip=ir.InsertionPoint(terminator))
        terminator.erase()


class _DataFlowEdges:
    """Data-flow edges of named computations, as sdy-add-data-flow-edges would
    give them: on each owner with a static shape, in the owners' order right
    after the named computation (results) or at the start of its body (block
    arguments), with the owner's sharding; every other use of the owner goes
    through its edge. (Where edges go does not depend on the order named
    computations get them in.)"""

    def __init__(self):
        table = interfaces.table()
        self.in_attr = table.of(NAMED_COMPUTATION).block_args.attr
        self.out_attr = table.result_slot(NAMED_COMPUTATION).attr
        self._static: dict[ir.Type, bool] = {}  # type -> whether it is a static shape (_is_static)
        # per-value sharding attribute -> the attributes of each value's edge
        self._edge_attributes: dict[ir.Attribute, list[dict]] = {}

    def _attributes_per_value(self, shardings: ir.Attribute | None, count: int) -> list[dict | None]:
        """The attributes of the edges of `count` values with per-value `shardings`."""
        if shardings is None:
            return [None] * count
        found = self._edge_attributes.get(shardings)
        if found is None:
            found = self._edge_attributes[shardings] = [
                {"sharding": s} for s in sdy.TensorShardingPerValueAttr(shardings).shardings]
        return found

    def _is_static(self, t: ir.Type) -> bool:
        ranked = tensor_type(t)
        static = self._static[t] = ranked is not None and ranked.has_static_shape
        return static

    def on_existing(self, named: ir.Operation) -> None:
        """Edges on the results and block arguments of `named`, with the shardings it holds."""
        attrs = named.attributes
        self.on_results(named, named.results.types, attrs[self.out_attr] if self.out_attr in attrs else None,
                        named.location, ir.InsertionPoint.after(named))
        self.on_body(named.regions[0].blocks[0], attrs[self.in_attr] if self.in_attr in attrs else None)

    def on_results(self, named: ir.Operation, types: list[ir.Type], out_shardings: ir.Attribute | None,
                   loc: ir.Location, point: ir.InsertionPoint, call_results: list | None = None) -> None:
        """Edges on the results of `named` (of `types`, with `out_shardings`) at
        `point`, right after it; every other use of a result goes through its edge.
        `call_results`: those of the call `named` replaces, whose uses go to the
        edges (or to the results without one) instead."""
        results = named.results
        for result, t, attributes, old in zip(results, types, self._attributes_per_value(out_shardings, len(types)),
                                              results if call_results is None else call_results):
            static = self._static.get(t)
            if not (static if static is not None else self._is_static(t)):
                if call_results is not None:
                    old.replace_all_uses_with(result)
                continue
            edge = ir.Operation.create(DATA_FLOW_EDGE, results=[t], operands=[result], attributes=attributes,
                                       loc=loc, ip=point)
            if call_results is not None:
                old.replace_all_uses_with(edge.result)  # (the new result has no other use)
            else:
                result.replace_all_uses_except(edge.result, edge)

    def on_body(self, block: ir.Block, in_shardings: ir.Attribute | None) -> None:
        """Edges on the arguments of a named computation's `block` (with `in_shardings`), first in it."""
        point = ir.InsertionPoint.at_block_begin(block)
        arguments = block.arguments
        for value, t, attributes in zip(arguments, arguments.types,
                                        self._attributes_per_value(in_shardings, len(arguments))):
            static = self._static.get(t)
            if static if static is not None else self._is_static(t):
                edge = ir.Operation.create(DATA_FLOW_EDGE, results=[t], operands=[value], attributes=attributes,
                                           loc=value.location, ip=point)
                value.replace_all_uses_except(edge.result, edge)
