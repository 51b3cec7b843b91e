"""The module's funcs and calls as the propagation engine sees them: which
func a call calls, which calls call a func (the func data-flow edges of
rules/interfaces.yaml join them), built once per engine, calls in the order
MLIR's SymbolUserMap lists them.
The call-graph passes' own graph, in MLIR's CallGraph order, is
sdy_dsl/runtime/call_graph.py."""
from __future__ import annotations

from jaxlib.mlir import ir

from ..values import ops_in_symbol_use_order


def func_name(func: ir.Operation) -> str:
    return ir.StringAttr(func.attributes["sym_name"]).value


class CallGraph:
    """Funcs by name and the call ops of each callee (by the interfaces'
    `callee` attribute of call-like ops)."""

    def __init__(self, funcs: list[ir.Operation], table, op_names=None):
        """`op_names`: the names of the ops in the funcs, if the caller knows
        them (no call among them: no walk)."""
        self.table = table
        self.funcs = funcs
        self.funcs_by_name = {func_name(f): f for f in funcs}
        self._calls: dict[str, list] = {}
        if op_names is not None and all(table.callee_attr(n) is None for n in op_names):
            return
        # A callee's calls in the order the reference's SymbolUserMap lists
        # them (not program order): the order of a func argument edge's sources
        # and of the notifications a returned value sends to the call sites.
        for op in (op for func in funcs for op in ops_in_symbol_use_order(func)):
            attr = table.callee_attr(op.name)
            if attr is not None and attr in op.attributes:
                callee = ir.FlatSymbolRefAttr(op.attributes[attr]).value
                self._calls.setdefault(callee, []).append(op.operation)

    def calls_of(self, func: ir.Operation) -> list:
        return self._calls.get(func_name(func), [])

    def callee_of(self, call: ir.Operation) -> ir.Operation | None:
        attr = call.attributes[self.table.callee_attr(call.name)]
        return self.funcs_by_name.get(ir.FlatSymbolRefAttr(attr).value)

    def main_funcs(self) -> list[ir.Operation]:
        """The funcs whose results are tied to their return values: the reference
        does this for the module's main func only (the single func, or `@main`)."""
        if len(self.funcs) == 1:
            return self.funcs
        return [f for f in self.funcs if func_name(f) == "main"]
