"""`cost`'s collectives against the ones XLA compiles for the same JAX program
on 8 CPU devices, read from the compiled HLO text by a parser of this file
(its own element sizes; nothing shared with sdy_dsl/cost.py or sdy_dsl/jax.py).

Only element types whose collectives XLA's CPU backend runs unwidened are
compared: it widens bf16 to f32, f8 to f16 and s4 to s8 before a collective,
so there the two counts differ by design (cost counts the program's type;
tests/test_cost_bytes.py checks those by hand)."""
from __future__ import annotations

import re
from collections import Counter

import models.zoo as zoo  # noqa: F401  (first: it asks XLA for 8 CPU devices)

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from sdy_dsl.cost import cost

# Bytes per element of the HLO element types these programs use.
HLO_ELEMENT_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "s32": 4, "u32": 4, "f32": 4,
                     "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}
_COLLECTIVE = re.compile(r"=\s*(\(.*?\)|\S+)\s+(all-gather|all-reduce|all-to-all|collective-permute|reduce-scatter)"
                         r"(?:-start)?\(")
_ARRAY = re.compile(r"([a-z]+\d*)\[([\d,]*)\]")


def xla_collectives(hlo: str) -> Counter:
    """(kind, bytes of the result per device) of each collective in HLO; a
    tuple result (an all-to-all of several pieces) counts all its arrays."""
    found = Counter()
    for type_text, kind in _COLLECTIVE.findall(hlo):
        size = 0
        for dtype, dims in _ARRAY.findall(type_text):
            count = 1
            for d in filter(None, dims.split(",")):
                count *= int(d)
            size += count * HLO_ELEMENT_BYTES[dtype]
        found[(kind, size)] += 1
    return found


def ours(lowered_text: str) -> Counter:
    report = cost(lowered_text)
    return Counter((c.kind.replace("_", "-"), c.bytes) for f in report.functions for c in f.collectives
                   if c.kind != "all_slice")  # a local slice: no collective in XLA's program


MESH = jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def _on(spec):
    return NamedSharding(MESH, spec)


def _gather_then_reduce(dtype):
    """A 6x8 array split [x, y] (6 rows over x=4: XLA pads to 8, 2 rows per
    device), gathered over y, then summed over the uneven rows."""
    def f(a):
        b = jax.lax.with_sharding_constraint(a * a, _on(P("x", "y")))
        c = jax.lax.with_sharding_constraint(b * b, _on(P("x", None)))
        return c.sum(0)
    arg = jax.ShapeDtypeStruct((6, 8), dtype, sharding=_on(P()))
    return jax.jit(f, out_shardings=_on(P())).lower(arg)


# dtype -> (all-gather bytes, all-reduce bytes), by hand: the gather's result is
# ceil(6/4) x 8 = 16 elements, the sum's 8 elements (of int32 for bool: jnp.sum
# of bools counts them in int32; of f32 for f16: jnp.sum accumulates in f32).
CASES = {
    "complex64": (16 * 8, 8 * 8), "complex128": (16 * 16, 8 * 16), "float64": (16 * 8, 8 * 8),
    "int64": (16 * 8, 8 * 8), "int32": (16 * 4, 8 * 4), "float16": (16 * 2, 8 * 4), "int16": (16 * 2, 8 * 4),
    "uint8": (16 * 1, 8 * 4), "bool": (16 * 1, 8 * 4),
}


@pytest.mark.parametrize("dtype", sorted(CASES))
def test_uneven_gather_and_reduce_match_xla(dtype):
    with jax.enable_x64(dtype in ("complex128", "float64", "int64")):
        lowered = _gather_then_reduce(getattr(jnp, dtype))
        compiled = xla_collectives(lowered.compile().as_text())
    gather, reduce = CASES[dtype]
    assert compiled == Counter({("all-gather", gather): 1, ("all-reduce", reduce): 1})
    assert ours(lowered.as_text()) == compiled


def test_all_to_all_matches_xla():
    # 8x4 complex64 moved from rows over x to columns over x: each device ends
    # with 8 x 4/4 = 8 elements x 8 bytes = 64 (XLA: 4 pieces of 2x1x1). Then
    # the column sums (4 complex64, split over x) are gathered: 4 x 8 = 32.
    def f(a):
        b = jax.lax.with_sharding_constraint(a * a, _on(P("x", None)))
        c = jax.lax.with_sharding_constraint(b * b, _on(P(None, "x")))
        return c.sum(0)
    arg = jax.ShapeDtypeStruct((8, 4), jnp.complex64, sharding=_on(P()))
    lowered = jax.jit(f, out_shardings=_on(P())).lower(arg)
    compiled = xla_collectives(lowered.compile().as_text())
    assert compiled == Counter({("all-to-all", 64): 1, ("all-gather", 32): 1})
    assert ours(lowered.as_text()) == compiled


def test_contracting_dot_matches_xla_except_the_padded_gather():
    # (6x16 split [x, y]) @ (16x4 split [y, -]): partial sums all-reduced over
    # y, ceil(6/4) x 4 = 8 complex64 = 64 bytes. The replicated result is then
    # gathered over x: XLA gathers the padded 8 x 4 (256 bytes), cost counts
    # the 6 x 4 tensor (192 bytes): it does not model XLA's padding.
    def g(a, b):
        a = jax.lax.with_sharding_constraint(a, _on(P("x", "y")))
        b = jax.lax.with_sharding_constraint(b, _on(P("y", None)))
        return a @ b
    args = (jax.ShapeDtypeStruct((6, 16), jnp.complex64, sharding=_on(P())),
            jax.ShapeDtypeStruct((16, 4), jnp.complex64, sharding=_on(P())))
    lowered = jax.jit(g, out_shardings=_on(P())).lower(*args)
    assert xla_collectives(lowered.compile().as_text()) == Counter({("all-reduce", 64): 1, ("all-gather", 256): 1})
    assert ours(lowered.as_text()) == Counter({("all-reduce", 64): 1, ("all-gather", 192): 1})
