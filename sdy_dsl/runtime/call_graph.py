"""A module's call graph, in the order MLIR's CallGraph gives Shardy's passes.

A function is a symbol op at the top of the module (`func.func`); it is a
node of the graph when it has a body. A call is an op that rules/interfaces.yaml
declares with `call: {callee-attr: ATTR}` (`func.call`); its callee is the
function its ATTR names. A call to a function without a body (a declaration)
or to no function is not an edge.

MLIR's graph starts from an external node whose children are the functions
in module order; each function's children are its callees in the order of
its calls. Shardy iterates the post-order of that graph ("callees first")
or its reverse ("pre-order": callers first).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from . import interfaces
from .sharding import TensorSharding, codec
from .values import SHARDING_ATTR, MeshTable, operation, ops_named, rank_of

ORIGINAL_FUNC_NAME = "sdy.original_func_name"


def call_op_names() -> list[str]:
    """The op names declared as calls (`call:` in rules/interfaces.yaml)."""
    return sorted(name for name, decl in interfaces.table().ops.items() if decl.callee_attr)


def callee_attr(call) -> str:
    return interfaces.table().callee_attr(operation(call).name)


def callee_name(call) -> str:
    return ir.FlatSymbolRefAttr(operation(call).attributes[callee_attr(call)]).value


def set_callee(call, name: str) -> None:
    operation(call).attributes[callee_attr(call)] = ir.FlatSymbolRefAttr.get(name)


def calls_in(root) -> list[ir.Operation]:
    """The calls under `root`, in program order (nested ones included)."""
    return ops_named(root, call_op_names())


def symbols(module) -> dict[str, ir.Operation]:
    """The symbol ops at the top of `module`, by name, in module order."""
    found = {}
    for op in operation(module).regions[0].blocks[0].operations:
        op = operation(op)
        if "sym_name" in op.attributes:
            found.setdefault(ir.StringAttr(op.attributes["sym_name"]).value, op)
    return found


def _name(op) -> str:
    return ir.StringAttr(operation(op).attributes["sym_name"]).value


def is_function(op) -> bool:
    """A function-like symbol op (it has a `function_type`)."""
    return "function_type" in operation(op).attributes


def has_body(func) -> bool:
    func = operation(func)
    return len(func.regions) > 0 and len(func.regions[0].blocks) > 0


def original_name(func) -> str:
    """The `sdy.original_func_name` of a function (set on copies), else its name."""
    attrs = operation(func).attributes
    key = ORIGINAL_FUNC_NAME if ORIGINAL_FUNC_NAME in attrs else "sym_name"
    return ir.StringAttr(attrs[key]).value


class CallGraph:
    """The call graph of a module when it is built (later changes are not seen)."""

    def __init__(self, module):
        self.module = operation(module)
        self.symbols = symbols(self.module)
        self.nodes = [op for op in self.symbols.values() if is_function(op) and has_body(op)]
        self._calls = {_name(op): calls_in(op) for op in self.nodes}
        self._search: tuple[list, list] | None = None

    def callee(self, call) -> ir.Operation | None:
        """The function with a body that `call` calls, or None."""
        func = self.symbols.get(callee_name(call))
        return func if func is not None and is_function(func) and has_body(func) else None

    def calls_of(self, func) -> list[ir.Operation]:
        return self._calls.get(_name(func), [])

    def post_order(self) -> list[ir.Operation]:
        """Functions with a body, callees before callers (LLVM's post-order
        from the external node: each function reached first from the
        earliest function in module order, then in call order)."""
        return list(self._depth_first()[0])

    def pre_order(self) -> list[ir.Operation]:
        """Functions with a body, callers before callees (the reverse post-order)."""
        return list(reversed(self._depth_first()[0]))

    def recursive_calls(self) -> list[ir.Operation]:
        """The calls that close a cycle (a function reaching itself again):
        the back edges of that depth-first search."""
        return list(self._depth_first()[1])

    def _depth_first(self) -> tuple[list, list]:
        """(functions in post-order, calls to a function still on the search path)."""
        if self._search is not None:
            return self._search
        order, back_edges = [], []
        state: dict[str, str] = {}  # function name -> "active" while on the path, then "done"
        for root in self.nodes:
            if _name(root) in state:
                continue
            state[_name(root)] = "active"
            stack = [(root, iter(self.calls_of(root)))]
            while stack:
                func, calls = stack[-1]
                for call in calls:
                    callee = self.callee(call)
                    mark = None if callee is None else state.get(_name(callee), "new")
                    if mark == "active":
                        back_edges.append(call)
                    elif mark == "new":
                        state[_name(callee)] = "active"
                        stack.append((callee, iter(self.calls_of(callee))))
                        break
                else:
                    state[_name(func)] = "done"
                    order.append(func)
                    stack.pop()
        self._search = (order, back_edges)
        return self._search


def clone_function_recursively(func, table: ir.SymbolTable, module) -> str:
    """Copy `func` and, inside the copy, every function it calls (recursively),
    as Shardy's cloneFuncRecursively: each copy has `sdy.original_func_name`,
    is appended to the module after the copies of its callees and is renamed
    by `table` (`name_<k>`, one counter per table). Returns the copy's name."""
    return ir.StringAttr(table.insert(_clone_at_end(func, table, operation(module).regions[0].blocks[0]))).value


def _clone_at_end(func, table: ir.SymbolTable, body: ir.Block) -> ir.Operation:
    """The copy of clone_function_recursively, the last op of `body` (without listing
    `body`'s ops: a module of N copies would be listed N times)."""
    copy = operation(func).clone(ip=ir.InsertionPoint(body))
    copy.attributes[ORIGINAL_FUNC_NAME] = ir.StringAttr.get(original_name(func))
    last = copy  # the op appended last: each callee's copy ends up last when made
    for call in calls_in(copy):
        last = _clone_at_end(operation(table[callee_name(call)]), table, body)
        set_callee(call, ir.StringAttr(table.insert(last)).value)
    if last != copy:
        copy.move_after(last)
    return copy


def function_shardings(func, key: str, meshes: MeshTable) -> list[TensorSharding] | None:
    """The shardings of a function's arguments (`key` "arg_attrs") or results
    ("res_attrs"), a missing one fully open on the mesh of the first sharding
    whose mesh is not maximal; None when there is no such sharding (Shardy's
    getFuncArgShardings / getFuncResultShardings)."""
    func = operation(func)
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    types = function_type.inputs if key == "arg_attrs" else function_type.results
    dicts = list(ir.ArrayAttr(func.attributes[key])) if key in func.attributes else []
    given: list[TensorSharding | None] = []
    for i in range(len(types)):
        entries = ir.DictAttr(dicts[i]) if i < len(dicts) else None
        given.append(codec.tensor_sharding(entries[SHARDING_ATTR])
                     if entries is not None and SHARDING_ATTR in entries else None)
    first = next((s for s in given if s is not None and not meshes.mesh_of(s).is_maximal), None)
    if first is None:
        return None
    return [s if s is not None else
            TensorSharding.replicated_like(first.mesh_name, rank_of(t), is_closed=False,
                                           inline_mesh=first.inline_mesh)
            for s, t in zip(given, types)]
