"""Where communication happens, for the `explain --report` page.

The report's module (propagated) is tagged op by op, then goes through the
cost analysis' explicit-collectives steps (sdy_dsl/cost.py: explicit
reshards, reshard-to-collectives, the canonicalizations). Each collective of
that module is attached to the report's op it was inserted for:

- an all-reduce or reduce-scatter finishes a reduction: the op whose result
  it reduces (the one its chain of collectives starts from);
- any other collective reshards a value for its user: the first op (not a
  collective) that uses the chain's result, at that operand; a function's
  return is the function result it feeds.

A collective whose op lost its tag (folded away) is attached to nothing but
still counts in its function's summary.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from jaxlib.mlir import ir

from .cost import Collective, collective, make_collectives_explicit
from .errors import SdyDslError
from .mlir_context import make_context
from .runtime import interfaces
from .runtime.values import MeshTable, ops_under

TAG = "sdy_dsl.report_op"
REDUCTIONS = ("all_reduce", "reduce_scatter")


@dataclass
class Placed:
    """A collective and where it happens: (op index, 'operand'|'result', number), or None."""
    collective: Collective
    func: str
    at: tuple[int, str, int] | None


@dataclass
class Communication:
    placed: list[Placed] = field(default_factory=list)
    error: str = ""  # why nothing could be measured


def tagged_text(ops: list[ir.Operation], module: ir.Module) -> str:
    """MODULE's text with OPS[i] tagged i (the tags are removed again)."""
    i64 = ir.IntegerType.get_signless(64)
    for i, op in enumerate(ops):
        op.attributes[TAG] = ir.IntegerAttr.get(i64, i)
    try:
        return module.operation.get_asm(enable_debug_info=True)
    finally:
        for op in ops:
            del op.attributes[TAG]


def communication(text: str, rules=None) -> Communication:
    """The collectives of TEXT (a tagged module) once explicit, each placed at a tagged op."""
    try:
        explicit = make_collectives_explicit(text, rules=rules)
    except SdyDslError as e:
        return Communication(error=str(e).splitlines()[0])
    out = Communication()
    table = interfaces.table()
    with make_context():
        module = ir.Module.parse(explicit)
        meshes = MeshTable(module.operation)
        for func in module.body.operations:
            func = func.operation
            if func.name != "func.func":
                continue
            name = "@" + ir.StringAttr(func.attributes["sym_name"]).value
            for op in ops_under(func):
                if op is not func and table.is_collective(op.name):
                    out.placed.append(Placed(collective(op, meshes), name, _place(op, table)))
    return out


def _tag(op) -> int | None:
    return ir.IntegerAttr(op.attributes[TAG]).value if TAG in op.attributes else None


def _defining_op(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner.operation


def _place(op, table) -> tuple[int, str, int] | None:
    if op.name.partition(".")[2] in REDUCTIONS:
        source = op.operands[0]
        while _defining_op(source) is not None and table.is_collective(_defining_op(source).name):
            source = _defining_op(source).operands[0]
        producer = _defining_op(source)
        if producer is not None and _tag(producer) is not None:
            return _tag(producer), "result", ir.OpResult(source).result_number
        return None
    pending, seen = [op], set()
    while pending:
        current = pending.pop(0)
        for use in current.results[0].uses:
            user = use.owner.operation
            if table.is_collective(user.name):
                if user not in seen:
                    seen.add(user)
                    pending.append(user)
            elif _tag(user) is not None:
                return _tag(user), "operand", use.operand_number
    return None
