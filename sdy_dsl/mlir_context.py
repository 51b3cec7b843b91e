"""The one place that builds an MLIR context with every dialect real modules use."""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, mpmd, sdy, stablehlo

from .runtime.sharding import codec

MLIR_BYTECODE_MAGIC = b"ML\xefR"  # the first bytes of an MLIR bytecode file

_DENSE_CASTER_INSTALLED = False


def _dense_elements_caster(attr: ir.Attribute) -> ir.Attribute:
    """The bindings' own caster for DenseIntOrFPElementsAttr knows integer and
    float elements only: any read of a complex constant's `value` (an op's
    attribute dictionary, a NamedAttribute, Attribute.parse) raised TypeError,
    and inside an iteration of the dictionary it aborted the process. This one
    is total: integers and floats as before, anything else (complex) as a plain
    DenseElementsAttr."""
    element = ir.ShapedType(attr.type).element_type.maybe_downcast()
    if isinstance(element, (ir.IntegerType, ir.IndexType)):
        return ir.DenseIntElementsAttr(attr)
    if isinstance(element, ir.FloatType):
        return ir.DenseFPElementsAttr(attr)
    return ir.DenseElementsAttr(attr)


def _install_dense_elements_caster(ctx: ir.Context) -> None:
    """Register the total caster once per process (casters are global)."""
    global _DENSE_CASTER_INSTALLED
    if _DENSE_CASTER_INSTALLED:
        return
    typeid = ir.Attribute.parse("dense<0> : tensor<1xi32>", ctx).typeid
    ir.register_type_caster(typeid, replace=True)(_dense_elements_caster)
    _DENSE_CASTER_INSTALLED = True


def make_context(allow_unregistered_dialects: bool = False) -> ir.Context:
    """A context with builtin, func, stablehlo, chlo, sdy, mpmd and jax's dialects."""
    ctx = ir.Context()
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    for dialect in (sdy, stablehlo, mpmd, chlo):
        dialect.register_dialect(ctx)
    ctx.allow_unregistered_dialects = allow_unregistered_dialects
    _install_dense_elements_caster(ctx)
    # Diagnostics must come out in program order, and Python callbacks are not
    # thread safe: keep the context single-threaded.
    ctx.enable_multithreading(False)
    ctx.emit_error_diagnostics = True
    # Attribute caches are keyed by attribute handles, which belong to one context.
    codec.clear()
    return ctx
