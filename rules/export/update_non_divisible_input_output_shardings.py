"""Hooks of sdy-update-non-divisible-input-output-shardings: the evenly sharded prefix."""
from __future__ import annotations

import math
from dataclasses import replace

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, call_graph_export
from sdy_dsl.runtime.sharding import AxisRef, TensorSharding
from sdy_dsl.runtime.values import SHARDING_ATTR, codec


def _static_shape(t: ir.Type):
    if isinstance(t, ir.RankedTensorType) and t.has_static_shape:
        return list(t.shape)
    return None


def _even(ctx: RewriteContext, s: TensorSharding, t: ir.Type) -> TensorSharding:
    shape = _static_shape(t)
    if s is None or shape is None:
        return s
    mesh = ctx.meshes().mesh_of(s)
    if all(size % dim.size(mesh) == 0 for dim, size in zip(s.dims, shape)):
        return s  # evenly sharded already
    dims = []
    for dim, size in zip(s.dims, shape):
        if size % dim.size(mesh) == 0:
            dims.append(dim)
            continue
        left, axes = size, []
        for axis in dim.axes:
            gcd = math.gcd(axis.size(mesh), left)
            if gcd == 1:
                break
            if gcd == axis.size(mesh):
                axes.append(axis)
                left //= gcd
                continue
            axes.append(AxisRef(axis.name, axis.pre_size, gcd))
            break
        dims.append(replace(dim, axes=tuple(axes), priority=None))
    return replace(s, dims=tuple(dims))


@hook
def evenly_sharded(ctx: RewriteContext, sharding: TensorSharding | ir.Attribute | None, value: ir.Value) -> TensorSharding | None:
    """The largest prefix of `sharding` that shards `value` evenly (none stays none)."""
    return _even(ctx, sharding, value.type)


class _EvenAttrs:
    """Per run: each sharding attribute made even for a type, and each
    function's or call's shardings attribute made even for its types
    (attributes are uniqued: equal ones are worked out once)."""

    def __init__(self, ctx: RewriteContext):
        self.ctx = ctx
        self.shardings: dict[tuple, ir.Attribute] = {}
        self.func_attrs: dict[tuple, ir.Attribute | None] = {}
        self.per_value: dict[tuple, ir.Attribute | None] = {}

    def sharding(self, attr: ir.Attribute, t: ir.Type) -> ir.Attribute:
        key = (attr, t)
        found = self.shardings.get(key)
        if found is None:
            old = codec.tensor_sharding(attr)
            new = _even(self.ctx, old, t)
            found = self.shardings[key] = attr if new == old else codec.tensor_sharding_attr(new)
        return found

    def func_attrs_of(self, dicts: ir.Attribute, function_type: ir.Attribute, which: str) -> ir.Attribute | None:
        """`arg_attrs` / `res_attrs` (`which`) with every sharding even (None: already even)."""
        key = (dicts, function_type, which)
        try:
            return self.func_attrs[key]
        except KeyError:
            pass
        signature = ir.FunctionType(ir.TypeAttr(function_type).value)
        types = signature.inputs if which == "arg_attrs" else signature.results
        entries, changed = [], False
        for d, t in zip(ir.ArrayAttr(dicts), types):
            d = ir.DictAttr(d)
            if SHARDING_ATTR in d:
                old = d[SHARDING_ATTR]
                new = self.sharding(old, t)
                if new != old:
                    d = ir.DictAttr.get({**{n.name: n.attr for n in d}, SHARDING_ATTR: new})
                    changed = True
            entries.append(d)
        found = self.func_attrs[key] = ir.ArrayAttr.get(entries) if changed else None
        return found

    def per_value_of(self, attr: ir.Attribute, types: tuple) -> ir.Attribute | None:
        """A per-value shardings attribute with every sharding even (None: already even)."""
        key = (attr, types)
        try:
            return self.per_value[key]
        except KeyError:
            pass
        old = sdy.TensorShardingPerValueAttr(attr).shardings
        new = [self.sharding(s, t) for s, t in zip(old, types)]
        found = self.per_value[key] = (sdy.TensorShardingPerValueAttr.get(new)
                                       if any(a != b for a, b in zip(old, new)) else None)
        return found


@hook
def make_func_and_call_shardings_even(ctx: RewriteContext) -> None:
    """Every function's argument and result shardings, and every call's result shardings, made even."""
    even = _EvenAttrs(ctx)
    for func in call_graph_export.funcs_of(ctx.module):
        attrs = func.attributes
        for key in ("arg_attrs", "res_attrs"):
            if key not in attrs:
                continue
            new = even.func_attrs_of(attrs[key], attrs["function_type"], key)
            if new is not None:
                ctx.record_change("even-signature", func)
                attrs[key] = new
                ctx.mark_changed()
    for call in call_graph.calls_in(ctx.module):
        attrs = call.attributes
        if SHARDING_ATTR not in attrs:
            continue
        new = even.per_value_of(attrs[SHARDING_ATTR], tuple(r.type for r in call.results))
        if new is not None:
            ctx.record_change("even-call-results", call)
            attrs[SHARDING_ATTR] = new
            ctx.mark_changed()
