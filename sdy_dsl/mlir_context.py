"""The one place that builds an MLIR context with every dialect real modules use."""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, mpmd, sdy, stablehlo

from .runtime.sharding import codec

MLIR_BYTECODE_MAGIC = b"ML\xefR"  # the first bytes of an MLIR bytecode file


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
    # Diagnostics must come out in program order, and Python callbacks are not
    # thread safe: keep the context single-threaded.
    ctx.enable_multithreading(False)
    ctx.emit_error_diagnostics = True
    # Attribute caches are keyed by attribute handles, which belong to one context.
    codec.clear()
    return ctx
