"""What reading a module once through jaxlib's MLIR Python bindings costs per op.

Any Python propagation engine reads each op at least once: its name, operands,
results, their types and uses, its attributes, and keys its values in dicts.
This measures exactly that (no sdy-dsl logic) on a module, next to the
reference's time per op for a pass, to show the floor a pass's ratio cannot
go under. Usage:

    python benchmarks/binding_floor.py MODULE.mlir [--ref-ms MS]

`--ref-ms`: the reference's time for the pass on MODULE (from
`ref_runner.py --timing`), to print its microseconds per op beside the floor.
"""
from __future__ import annotations

import argparse
import time

from sdy_dsl.mlir_context import make_context
from jaxlib.mlir import ir


def module_ops(module: ir.Module) -> list:
    ops = []

    def visit(op):
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE
    module.operation.walk(visit)
    return ops[1:]  # (not the module)


def per_op_us(ops: list, read, repeat: int = 5) -> float:
    """The best of `repeat` passes of `read` over every op, in microseconds per op."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for op in ops:
            read(op)
        best = min(best, time.perf_counter() - started)
    return best / len(ops) * 1e6


def read_once(op, values: dict) -> None:
    """What a propagation step must know of an op, read once, its values keyed."""
    name = op.name
    operands = list(op.operands)
    results = list(op.results)
    attrs = op.attributes
    "sdy.sharding" in attrs
    [v.type for v in operands]
    list(op.results.types)
    for result in results:
        for use in result.uses:
            use.owner
        values[result] = name
    for operand in operands:
        values.get(operand)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("module")
    ap.add_argument("--ref-ms", type=float, help="the reference's pass time on the module (ms)")
    args = ap.parse_args()
    with make_context():
        module = ir.Module.parse(open(args.module).read())
        ops = module_ops(module)
        rows = [
            ("an empty loop", lambda op: None),
            ("op.name", lambda op: op.name),
            ("list(op.operands)", lambda op: list(op.operands)),
            ("list(op.results)", lambda op: list(op.results)),
            ("the uses of its results", lambda op: [list(r.uses) for r in op.results]),
            ("hash(op)", hash),
        ]
        print(f"{len(ops)} ops")
        for label, read in rows:
            print(f"  {label:28s} {per_op_us(ops, read):6.2f} us/op")
        values: dict = {}
        floor = per_op_us(ops, lambda op: read_once(op, values))
        print(f"  {'all of it, values keyed':28s} {floor:6.2f} us/op  (the floor of one sweep's first reads)")
        if args.ref_ms is not None:
            ref = args.ref_ms * 1e3 / len(ops)
            print(f"reference pass: {ref:.2f} us/op; at 1.5x: {1.5 * ref:.2f} us/op "
                  f"= {1.5 * ref / floor:.1f} x the floor")


if __name__ == "__main__":
    main()
