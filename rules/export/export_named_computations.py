"""Hook of sdy-export-named-computations: a named computation's body becomes
a private function, the named computation a call of it.

One stage hook over every named computation (post-order): the module's
symbol table, the attribute names and the ops to build are looked up once per
run, and the edge shardings move as attributes (no per-op rule matching).
"""
from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, interfaces
from sdy_dsl.runtime.sharding import TensorSharding, codec
from sdy_dsl.runtime.values import SHARDING_ATTR, block_terminator, operation, ops_named, rank_of

NAMED_COMPUTATION = "sdy.named_computation"


class _Export:
    """What one run needs for every named computation."""

    def __init__(self, ctx: RewriteContext):
        params = ctx.params
        table = interfaces.table()
        self.module_body = operation(ctx.module).regions[0].blocks[0]
        self.symbols = ir.SymbolTable(operation(ctx.module))
        self.function_op, self.call_op, self.return_op = params.function_op, params.call_op, params.return_op
        self.callee_attr = table.callee_attr(self.call_op)
        self.on_func = list(params.on_func)
        self.not_on_call = set(params.not_on_call)
        self.in_attr = table.of(NAMED_COMPUTATION).block_args.attr
        self.out_attr = table.result_slot(NAMED_COMPUTATION).attr
        self.private = ir.StringAttr.get("private")
        self.per_value: dict[tuple, ir.Attribute] = {}  # shardings -> their per-value attribute
        self.arg_attrs: dict[tuple, ir.Attribute] = {}  # shardings -> `arg_attrs` holding them
        self.function_types: dict[tuple, ir.Attribute] = {}  # (argument, result types) -> function type
        self.open_like = OpenShardings()

    def export(self, nc: ir.Operation) -> None:
        body = nc.regions[0].blocks[0]
        arguments, results = list(body.arguments), list(nc.results)
        arg_edges = [interfaces.data_flow_edge_of(a) for a in arguments]
        result_edges = [interfaces.data_flow_edge_of(r) for r in results]
        attrs = nc.attributes
        in_shardings = _shardings_of_edges(arg_edges, arguments, self.open_like)
        if in_shardings is None and self.in_attr in attrs:
            in_shardings = sdy.TensorShardingPerValueAttr(attrs[self.in_attr]).shardings
        out_shardings = _shardings_of_edges(result_edges, results, self.open_like)
        result_types = [r.type for r in results]
        func, func_name = self._new_private_func(nc, arguments, result_types, in_shardings)
        body.append_to(func.regions[0])
        terminator = block_terminator(body)
        ir.Operation.create(self.return_op, operands=list(terminator.operands), loc=terminator.location,
                            ip=ir.InsertionPoint(terminator))
        terminator.erase()
        _erase_edges(arg_edges, arguments)
        call_attrs = {k: v for k, v in attrs.items() if k not in self.not_on_call}
        call_attrs[self.callee_attr] = ir.FlatSymbolRefAttr.get(func_name)
        if out_shardings is not None:
            call_attrs[SHARDING_ATTR] = self._per_value(out_shardings)
        elif self.out_attr in attrs:
            call_attrs[SHARDING_ATTR] = attrs[self.out_attr]
        call = ir.Operation.create(self.call_op, results=result_types, operands=list(nc.operands),
                                   attributes=call_attrs, loc=nc.location, ip=ir.InsertionPoint(nc))
        # A result's edge (its only user) hands its uses to the call's result
        # directly, and goes: the result is then unused.
        for old, edge, new in zip(results, result_edges, call.results):
            if edge is None:
                old.replace_all_uses_with(new)
            else:
                edge.result.replace_all_uses_with(new)
                edge.erase()
        nc.erase()

    def _per_value(self, shardings: tuple) -> ir.Attribute:
        found = self.per_value.get(shardings)
        if found is None:
            found = self.per_value[shardings] = sdy.TensorShardingPerValueAttr.get(list(shardings))
        return found

    def _arg_attrs(self, shardings: tuple) -> ir.Attribute:
        """The `arg_attrs` giving each argument its sharding."""
        found = self.arg_attrs.get(shardings)
        if found is None:
            found = self.arg_attrs[shardings] = ir.ArrayAttr.get(
                [ir.DictAttr.get({SHARDING_ATTR: s}) for s in shardings])
        return found

    def _new_private_func(self, nc: ir.Operation, arguments: list, result_types: list,
                          in_shardings: tuple | None) -> tuple[ir.Operation, str]:
        """A private function named after `nc` (made unique) at the end of the
        module, with `nc`'s signature, original name, func attributes and
        in-shardings as argument shardings, and no body yet; and its name."""
        attrs = nc.attributes
        name = attrs["name"]
        types = (tuple(a.type for a in arguments), tuple(result_types))
        func_type = self.function_types.get(types)
        if func_type is None:
            func_type = self.function_types[types] = ir.TypeAttr.get(ir.FunctionType.get(*map(list, types)))
        func_attrs = {"sym_name": name, "function_type": func_type,
                      "sym_visibility": self.private, call_graph.ORIGINAL_FUNC_NAME: name}
        for key in self.on_func:
            if key in attrs:
                func_attrs[key] = attrs[key]
        if in_shardings is not None:
            func_attrs["arg_attrs"] = self._arg_attrs(tuple(in_shardings))
        func = ir.Operation.create(self.function_op, attributes=func_attrs, regions=1, loc=nc.location,
                                   ip=ir.InsertionPoint(self.module_body))
        name = self.symbols.insert(func)  # renamed if the name is taken
        return func, ir.StringAttr(name).value


class OpenShardings:
    """Per run: the fully open sharding attribute of each tensor type on the
    mesh of a sharding attribute (edges share a few meshes and types: one is
    decoded and encoded once per mesh and type, not once per unsharded edge)."""

    def __init__(self):
        self._found: dict[tuple[ir.Attribute, ir.Type], ir.Attribute] = {}  # (mesh or its name, type) -> open

    def on_mesh_of(self, sharding: ir.Attribute) -> Callable[[ir.Type], ir.Attribute]:
        """type -> fully open sharding of its rank on the mesh of `sharding`."""
        mesh = sdy.TensorShardingAttr(sharding).mesh_or_ref
        found = self._found

        def open_for(value_type: ir.Type) -> ir.Attribute:
            key = (mesh, value_type)
            attr = found.get(key)
            if attr is None:
                decoded = codec.tensor_sharding(sharding)
                attr = found[key] = codec.tensor_sharding_attr(TensorSharding.replicated_like(
                    decoded.mesh_name, rank_of(value_type), is_closed=False, inline_mesh=decoded.inline_mesh))
            return attr
        return open_for


def _shardings_of_edges(edges: list, owners: list, open_like: OpenShardings) -> tuple | None:
    """Shardy's getShardingsFromDataFlowEdges, as sharding attributes: each
    edge's sharding, an unsharded (or missing) edge fully open on the first
    sharded edge's mesh; None when no edge has a sharding."""
    found = [_edge_sharding(e) for e in edges]
    first = next((s for s in found if s is not None), None)
    if first is None:
        return None
    if any(s is None for s in found):
        open_for = open_like.on_mesh_of(first)
        found = [s if s is not None else open_for(owner.type) for s, owner in zip(found, owners)]
    return tuple(found)


def _edge_sharding(edge: ir.Operation | None) -> ir.Attribute | None:
    if edge is None:
        return None
    attrs = edge.attributes  # (a new view per access: asked once)
    return attrs["sharding"] if "sharding" in attrs else None


def _erase_edges(edges: list, owners) -> None:
    """Each edge is replaced by its owner."""
    for edge, owner in zip(edges, owners):
        if edge is not None:
            edge.result.replace_all_uses_with(owner)
            edge.erase()


@hook
def export_named_computations(ctx: RewriteContext) -> None:
    """Every named computation, after the ones nested in it, becomes a call of a new private function."""
    computations = ops_named(ctx.module, [NAMED_COMPUTATION], pre_order=False)
    if not computations:
        return
    export = _Export(ctx)
    for nc in computations:
        ctx.record_change("export", nc)
        export.export(nc)
    ctx.mark_changed()
