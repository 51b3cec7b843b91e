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

import functools

from jaxlib.mlir import ir

from . import interfaces
from . import rewrite as mlir_rewrite
from .sharding import TensorSharding, codec
from .values import SHARDING_ATTR, MeshTable, operation, ops_named, rank_of

ORIGINAL_FUNC_NAME = "sdy.original_func_name"


def call_op_names() -> list[str]:
    """The op names declared as calls (`call:` in rules/interfaces.yaml)."""
    return list(_call_op_names(interfaces.table()))


@functools.lru_cache(maxsize=8)
def _call_op_names(table) -> tuple[str, ...]:
    return tuple(sorted(name for name, decl in table.ops.items() if decl.callee_attr))


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
    """The call graph of a module when it is built (later changes are not seen).

    Functions are keyed by name and calls kept with their callee's name: an
    op's hash is of its contents, which change as a pass rewrites them."""

    def __init__(self, module):
        self.module = operation(module)
        self._top = [op.operation for op in self.module.regions[0].blocks[0].operations]
        self.symbols: dict[str, ir.Operation] = {}  # as symbols(module)
        self._node_of: list[str | None] = []  # per top-level op: its name if it is a function with a body
        for op in self._top:
            attrs = op.attributes
            name = ir.StringAttr(attrs["sym_name"]).value if "sym_name" in attrs else None
            first = name is not None and name not in self.symbols
            if first:
                self.symbols[name] = op
            self._node_of.append(name if first and "function_type" in attrs and has_body(op) else None)
        self._node_names = [name for name in self._node_of if name is not None]
        self.nodes = [self.symbols[name] for name in self._node_names]
        self._sites = self._collect_call_sites()
        self._search: tuple[list, list] | None = None

    def _collect_call_sites(self) -> dict[str, list[tuple[ir.Operation, str]]]:
        """(call, callee name) in each function (the calls nested in it), in
        program order: one walk of the module finds the calls (MLIR's walk
        visits them in program order), each then goes to its top-level ancestor."""
        table = interfaces.table()
        callee_attrs = {name: table.callee_attr(name) for name in _call_op_names(table)}
        calls: list = []

        def visit_call(op, _rewriter):
            calls.append(op)
            return True  # no change

        patterns = mlir_rewrite.RewritePatternSet(self.module.context)
        for name in sorted(callee_attrs):
            patterns.add(name, visit_call, benefit=1)
        mlir_rewrite.walk_and_apply_patterns(self.module, patterns.freeze())
        sites: dict[str, list[tuple[ir.Operation, str]]] = {name: [] for name in self._node_names}
        # (Ops hash by their contents, which nothing changes while the graph is built.)
        function_at = {op: name for op, name in zip(self._top, self._node_of) if name is not None}
        module = self.module
        for call in calls:
            call = call.operation
            ancestor = call.parent
            name = function_at.get(ancestor)
            while name is None and ancestor != module:
                ancestor = ancestor.parent
                name = function_at.get(ancestor)
            if name is not None:  # (else a call outside any function with a body)
                sites[name].append((call, ir.FlatSymbolRefAttr(call.attributes[callee_attrs[call.name]]).value))
        return sites

    def call_sites(self, func) -> list[tuple[ir.Operation, str]]:
        """(call, callee name) of each call in `func`, in program order."""
        return self._sites.get(_name(func), [])

    def node(self, name: str) -> ir.Operation | None:
        """The function with a body named `name`, if any."""
        return self.symbols[name] if name in self._sites else None

    def post_order(self) -> list[ir.Operation]:
        """Functions with a body, callees before callers (LLVM's post-order
        from the external node: each function reached first from the
        earliest function in module order, then in call order)."""
        return [self.symbols[name] for name in self._depth_first()[0]]

    def call_sites_callees_first(self) -> list[list[tuple[ir.Operation, str]]]:
        """call_sites of each function of post_order(), in that order (no function is asked its name)."""
        return [self._sites[name] for name in self._depth_first()[0]]

    def pre_order(self) -> list[ir.Operation]:
        """Functions with a body, callers before callees (the reverse post-order)."""
        return list(reversed(self.post_order()))

    def recursive_call_sites(self) -> list[tuple[ir.Operation, str]]:
        """The calls (with their callee's name) that close a cycle (a function
        reaching itself again): the back edges of that depth-first search, in
        program order."""
        back_edges = {id(site) for site in self._depth_first()[1]}
        if not back_edges:
            return []
        return [site for name in self._node_names for site in self._sites.get(name, ()) if id(site) in back_edges]

    def _depth_first(self) -> tuple[list, list]:
        """(names of the functions in post-order, call sites to a function still on the search path)."""
        if self._search is not None:
            return self._search
        order, back_edges = [], []
        sites = self._sites
        state: dict[str, str] = {}  # function name -> "active" while on the path, then "done"
        for root in self._node_names:
            if root in state:
                continue
            state[root] = "active"
            stack = [(root, iter(sites.get(root, ())))]
            while stack:
                func, calls = stack[-1]
                for site in calls:
                    callee = site[1]
                    mark = state.get(callee, "new") if callee in sites else None
                    if mark == "active":
                        back_edges.append(site)
                    elif mark == "new":
                        state[callee] = "active"
                        stack.append((callee, iter(sites[callee])))
                        break
                else:
                    state[func] = "done"
                    order.append(func)
                    stack.pop()
        self._search = (order, back_edges)
        return self._search


def clone_function_recursively(func, table: ir.SymbolTable, module, graph: CallGraph | None = None) -> str:
    """Copy `func` and, inside the copy, every function it calls (recursively),
    as Shardy's cloneFuncRecursively: each copy has `sdy.original_func_name`,
    is appended to the module after the copies of its callees and is renamed
    by `table` (`name_<k>`, one counter per table). Returns the copy's name.
    With `graph` (of the module when the copying started), a copy of one of
    its functions without calls is not searched for calls."""
    body = operation(module).regions[0].blocks[0]
    return ir.StringAttr(table.insert(_clone_at_end(func, table, body, graph))).value


def _clone_at_end(func, table: ir.SymbolTable, body: ir.Block, graph: CallGraph | None) -> ir.Operation:
    """The copy of clone_function_recursively, the last op of `body` (without listing
    `body`'s ops: a module of N copies would be listed N times)."""
    func = operation(func)
    copy = func.clone(ip=ir.InsertionPoint(body))
    attrs = func.attributes
    copy.attributes[ORIGINAL_FUNC_NAME] = attrs[ORIGINAL_FUNC_NAME if ORIGINAL_FUNC_NAME in attrs else "sym_name"]
    last = copy  # the op appended last: each callee's copy ends up last when made
    for call in calls_in(copy) if graph is None or _may_call(graph, func) else ():
        last = _clone_at_end(table[callee_name(call)], table, body, graph)
        set_callee(call, ir.StringAttr(table.insert(last)).value)
    if last != copy:
        copy.move_after(last)
    return copy


def _may_call(graph: CallGraph, func: ir.Operation) -> bool:
    """Whether `func` may hold calls: it has some in `graph`, or `graph` does
    not know it (a copy made since the graph was built)."""
    name = _name(func)
    return graph.node(name) is None or bool(graph.call_sites(func))


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


class SignatureShardings:
    """function_shardings (and its per-value attribute) of many functions,
    worked out once per distinct `arg_attrs` / `res_attrs` and function type
    (attributes are uniqued: functions with equal ones share the answer)."""

    def __init__(self, meshes: MeshTable):
        self.meshes = meshes
        self._found: dict[tuple, tuple] = {}  # (key, attrs, function type) -> (shardings, attribute, id)
        self._ids: dict[tuple | None, int] = {}  # shardings -> a small id (hashed once per signature)

    def _lookup(self, func, key: str) -> tuple:
        attrs = operation(func).attributes
        # (Without `key` a function has no shardings, whatever its type.)
        signature = (key, attrs[key], attrs["function_type"]) if key in attrs else (key,)
        found = self._found.get(signature)
        if found is None:
            shardings = function_shardings(func, key, self.meshes)
            shardings = tuple(shardings) if shardings is not None else None
            found = self._found[signature] = (
                shardings, codec.sharding_per_value_attr(shardings) if shardings is not None else None,
                self._ids.setdefault(shardings, len(self._ids)))
        return found

    def shardings(self, func, key: str) -> tuple[TensorSharding, ...] | None:
        """function_shardings(func, key, meshes), as a tuple."""
        return self._lookup(func, key)[0]

    def attribute(self, func, key: str) -> ir.Attribute | None:
        """Those shardings as a per-value attribute (None when there are none)."""
        return self._lookup(func, key)[1]

    def ident(self, func, key: str) -> int:
        """A small number, equal for equal shardings (None included)."""
        return self._lookup(func, key)[2]
