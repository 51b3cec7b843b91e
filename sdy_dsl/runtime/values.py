"""Where shardings live in the IR, and how to read and write them.

Shardings sit in a few kinds of places ("slots"):
- `sdy.sharding` (a TensorShardingPerValueAttr) on an op, one per result;
- a single TensorShardingAttr op attribute (`sharding` of sharding_constraint,
  reshard, data_flow_edge; `out_sharding` of collectives);
- a TensorShardingPerValueAttr op attribute (`in_shardings`/`out_shardings` of
  manual_computation and named_computation);
- `sdy.sharding` in a func's `arg_attrs` / `res_attrs`.
Which op keeps which is declared in `rules/interfaces.yaml` (see
`interfaces.py`); this module only knows the attribute kinds.
"""
from __future__ import annotations

import math
import re
from typing import Callable, Iterator

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from . import rewrite as mlir_rewrite
from .mpmd_types import mesh_tensor_type
from .sharding import Mesh, TensorSharding, codec

SHARDING_ATTR = "sdy.sharding"


def operation(op) -> ir.Operation:
    """The ir.Operation of an op or OpView."""
    return op.operation if hasattr(op, "operation") else op


def op_name(op) -> str:
    return operation(op).name


# --------------------------------------------------------------------------- meshes


class MeshTable:
    """The `sdy.mesh` symbols of a module, by name, in declaration order."""

    def __init__(self, module_op):
        self.meshes: dict[str, Mesh] = {}
        self.ops: dict[str, ir.Operation] = {}
        for op in operation(module_op).regions[0].blocks[0].operations:
            op = operation(op)
            if op.name == "sdy.mesh":
                name = ir.StringAttr(op.attributes["sym_name"]).value
                self.meshes[name] = codec.mesh(op.attributes["mesh"])
                self.ops[name] = op

    def mesh_of(self, sharding: TensorSharding) -> Mesh:
        if sharding.mesh_name is None:
            return sharding.inline_mesh
        return self.meshes[sharding.mesh_name]


def ops_under(root) -> list[ir.Operation]:
    """Every op under ROOT, ROOT included, in pre-order."""
    ops: list[ir.Operation] = []

    def visit(op):
        ops.append(op)
        return ir.WalkResult.ADVANCE
    operation(root).walk(visit, ir.WalkOrder.PRE_ORDER)
    return ops


def ops_in_symbol_use_order(root) -> list[ir.Operation]:
    """The ops under ROOT (not ROOT itself) in the order MLIR's symbol-use walk
    (`SymbolTable::getSymbolUses`, hence `SymbolUserMap::getUsers`) visits them:
    a stack of regions, each region's ops in order, an op's regions pushed after
    it is visited; so a block's own ops come before the ops nested in them, and
    the last region pushed is walked first."""
    found: list[ir.Operation] = []
    regions = list(operation(root).regions)
    while regions:
        for block in regions.pop().blocks:
            for op in block.operations:
                op = operation(op)
                found.append(op)
                regions.extend(op.regions)
    return found


def ops_named(root, names, pre_order: bool = True) -> list[ir.Operation]:
    """The ops under ROOT (not ROOT itself) named in NAMES, in pre-order (or post-order).

    MLIR's walk driver finds them without calling Python for the other ops.
    It visits in post-order, where an op comes right after the ops nested in
    it: for pre-order, each op with regions is moved before those."""
    found: list[ir.Operation] = []

    def collect(op, _rewriter):
        op = operation(op)
        if pre_order and op.regions:
            i = len(found)
            while i and is_ancestor(op, found[i - 1]):
                i -= 1
            found.insert(i, op)
        else:
            found.append(op)
        return True  # no change

    root = operation(root)
    patterns = mlir_rewrite.RewritePatternSet(root.context)
    for name in sorted(names):
        patterns.add(name, collect, benefit=1)
    mlir_rewrite.walk_and_apply_patterns(root, patterns.freeze())
    return found


class PostOrderFinder:
    """`ops_named(root, names, pre_order=False)` for many roots with the same
    names: one frozen pattern set, made on first use, serves them all (a
    module's thousands of small functions)."""

    def __init__(self, names):
        self.names = sorted(names)
        self._frozen = None
        self._found: list[ir.Operation] = []

    def _collect(self, op, _rewriter) -> bool:
        self._found.append(operation(op))
        return True  # no change

    def __call__(self, root) -> list[ir.Operation]:
        root = operation(root)
        if self._frozen is None:
            patterns = mlir_rewrite.RewritePatternSet(root.context)
            for name in self.names:
                patterns.add(name, self._collect, benefit=1)
            self._frozen = patterns.freeze()
        found = self._found = []
        mlir_rewrite.walk_and_apply_patterns(root, self._frozen)
        return found


def block_terminator(block: ir.Block) -> ir.Operation:
    """The last op of a block (its terminator)."""
    try:
        return ir.InsertionPoint.at_block_terminator(block).ref_operation  # (not a walk of the block)
    except ValueError:  # the last op is not a terminator
        ops = block.operations
        return ops[len(ops) - 1].operation


def region_terminator(op: ir.Operation, region_index: int = 0) -> ir.Operation:
    """The terminator of the entry block of one of the op's regions (the first by default)."""
    return block_terminator(operation(op).regions[region_index].blocks[0])


def region_index(op: ir.Operation, block: ir.Block) -> int | None:
    """Which of the op's regions holds `block` (None: none)."""
    for i, region in enumerate(op.regions):
        for b in region.blocks:
            if b == block:
                return i
    return None


def is_ancestor(a: ir.Operation, b: ir.Operation) -> bool:
    """Whether op `a` strictly contains op `b`."""
    p = b.parent
    while p is not None:
        p = operation(p)
        if p == a:
            return True
        p = p.parent
    return False


def structure_key(op, operands=None, results=None, *, name=None, attrs=None,
                  has_regions=None):
    """(name, attributes, operand and result types, small bodies) of an op,
    or None: what an op's sharding rule (and propagation's op-priority
    directions) are a function of. MLIR uniques attributes and types, so the
    key is cheap to hash; the layers of a model share a few hundred keys.
    An op with regions has a key when each region is one small self-contained
    block (a reduce's or scatter's combiner): its ops' structure and wiring
    are part of the key; other ops with regions have none. `name`, `attrs`
    (its attributes), `has_regions`: what the caller knows of the op."""
    op = operation(op)
    body = ()
    if len(op.regions) if has_regions is None else has_regions:
        body = _small_body_key(op)
        if body is None:
            return None
    return (op.name if name is None else name,
            tuple((op.attributes if attrs is None else attrs).items()),
            tuple([v.type for v in (op.operands if operands is None else operands)]),
            tuple([v.type for v in (op.results if results is None else results)]), body)


SMALL_BODY_OPS = 8  # the most ops a region of an op with a structure key holds


def _small_body_key(op: ir.Operation) -> tuple | None:
    """Each region's block as (argument types, then per op: name, attributes,
    operands as (op index, result number) or ("arg", number), result types),
    or None when a region is not one small block using only its own values."""
    regions = []
    for region in op.regions:
        blocks = region.blocks
        if len(blocks) != 1:
            return None
        block = blocks[0]
        arguments = list(block.arguments)
        local = {arg: ("arg", i) for i, arg in enumerate(arguments)}
        key = [tuple([arg.type for arg in arguments])]
        for index, inner in enumerate(block.operations):
            if index >= SMALL_BODY_OPS or len(inner.regions):
                return None
            refs = []
            for operand in inner.operands:
                ref = local.get(operand)
                if ref is None:
                    return None  # a value from outside the op
                refs.append(ref)
            inner_results = list(inner.results)
            for number, result in enumerate(inner_results):
                local[result] = (index, number)
            key.append((inner.name, tuple(inner.attributes.items()), tuple(refs),
                        tuple([r.type for r in inner_results])))
        regions.append(tuple(key))
    return tuple(regions)


def count_ops(root) -> int:
    """How many ops are under ROOT, ROOT included."""
    count = 0

    def visit(_op):
        nonlocal count
        count += 1
        return ir.WalkResult.ADVANCE
    operation(root).walk(visit)
    return count


def module_of(op) -> ir.Operation:
    op = operation(op)
    while op.name != "builtin.module":
        op = operation(op.parent)
    return op


# --------------------------------------------------------------------------- slots


class Slot:
    """One place holding a tuple of shardings: read() / write(shardings)."""

    __slots__ = ("op", "key", "index", "kind")

    def __init__(self, op: ir.Operation, key: str, kind: str, index: int = -1):
        self.op, self.key, self.kind, self.index = op, key, kind, index

    def read(self) -> tuple[TensorSharding, ...]:
        if self.kind == "single":
            return (codec.tensor_sharding(self.op.attributes[self.key]),)
        if self.kind == "per_value":
            return codec.sharding_per_value(self.op.attributes[self.key])
        # func arg/res attrs: one sharding in the dict at `index`
        attr = ir.DictAttr(ir.ArrayAttr(self.op.attributes[self.key])[self.index])
        return (codec.tensor_sharding(attr[SHARDING_ATTR]),)

    def write(self, shardings: tuple[TensorSharding, ...]) -> None:
        if self.kind == "single":
            self.op.attributes[self.key] = codec.tensor_sharding_attr(shardings[0])
        elif self.kind == "per_value":
            self.op.attributes[self.key] = codec.sharding_per_value_attr(shardings)
        else:
            set_func_sharding(self.op, self.key, self.index, shardings[0])


def sharding_slots(op) -> Iterator[Slot]:
    """Every sharding-holding attribute of one op (not nested ops)."""
    op = operation(op)
    attrs = op.attributes
    kind_of = codec.sharding_kind
    for key, attr in attrs.items():
        kind = kind_of(attr)
        if kind is not None:
            yield Slot(op, key, kind)
    if op.name == "func.func":
        for key in ("arg_attrs", "res_attrs"):
            if key in attrs:
                for i, d in enumerate(ir.ArrayAttr(attrs[key])):
                    if SHARDING_ATTR in ir.DictAttr(d):
                        yield Slot(op, key, "func", i)


def set_func_sharding(func_op, key: str, index: int, sharding: TensorSharding | None) -> None:
    """Set (or remove, with None) `sdy.sharding` in a func's arg_attrs/res_attrs."""
    func_op = operation(func_op)
    attrs = func_op.attributes
    if key in attrs:
        dicts = list(ir.ArrayAttr(attrs[key]))
    else:
        count = _func_arity(func_op, key)
        dicts = [ir.DictAttr.get({}) for _ in range(count)]
    d = ir.DictAttr(dicts[index])
    entries = {n.name: n.attr for n in d}
    if sharding is None:
        entries.pop(SHARDING_ATTR, None)
    else:
        entries[SHARDING_ATTR] = codec.tensor_sharding_attr(sharding)
    dicts[index] = ir.DictAttr.get(entries)
    attrs[key] = ir.ArrayAttr.get(dicts)


def remove_dict_entry(func_op, key: str, index: int, name: str) -> bool:
    """Remove `name` from the dictionary at `index` of a func's arg_attrs /
    res_attrs; returns whether it was there."""
    func_op = operation(func_op)
    attrs = func_op.attributes
    if key not in attrs:
        return False
    dicts = list(ir.ArrayAttr(attrs[key]))
    if not 0 <= index < len(dicts):
        raise ValueError(f"{key} has no entry {index} (it has {len(dicts)})")
    entries = {n.name: n.attr for n in ir.DictAttr(dicts[index])}
    if name not in entries:
        return False
    del entries[name]
    dicts[index] = ir.DictAttr.get(entries)
    attrs[key] = ir.ArrayAttr.get(dicts)
    return True


def _func_arity(func_op: ir.Operation, key: str) -> int:
    ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
    return len(ftype.inputs) if key == "arg_attrs" else len(ftype.results)


def transform_all_shardings(root, fn: Callable[[TensorSharding], TensorSharding]) -> int:
    """Rewrite every sharding under `root` (root included) with `fn`; returns how many changed."""
    changed = 0

    def visit(op):
        nonlocal changed
        for slot in sharding_slots(op):
            old = slot.read()
            new = tuple(fn(s) for s in old)
            if new != old:
                slot.write(new)
                changed += 1
        return ir.WalkResult.ADVANCE

    operation(root).walk(visit)
    return changed


def tensor_type(value_type: ir.Type) -> ir.RankedTensorType | None:
    """The ranked tensor type a sharding describes: the type itself, or the
    global type of an `!mpmd.mesh_tensor` (a shaped type for propagation)."""
    if isinstance(value_type, ir.RankedTensorType):
        return value_type
    mesh_tensor = mesh_tensor_type(value_type)
    return mesh_tensor.global_type if mesh_tensor is not None else None


def element_bytes(element_type: ir.Type) -> int:
    """Bytes one element moves in a collective: complex<T> is two Ts; sub-byte
    types (i1, i4, f4E2M1FN, ...) count one byte, as XLA's collectives move
    them (pred is a byte; the CPU backend widens s4 to s8 before one), though
    XLA packs them in buffers."""
    text = str(element_type)
    m = re.fullmatch(r"complex<[a-z]*?(\d+)>", text)
    if m:
        return 2 * max(1, int(m.group(1)) // 8)
    m = re.search(r"(\d+)", text)
    return max(1, int(m.group(1)) // 8) if m else 4


def per_device_bytes(value_type: ir.Type, sharding: TensorSharding | None, meshes: MeshTable) -> int:
    """Bytes of one device's shard of a tensor of VALUE_TYPE sharded SHARDING (0 for a
    token, a tuple or a dynamic shape)."""
    try:
        value_type = ir.ShapedType(value_type)
    except (ValueError, TypeError):
        return 0
    if not value_type.has_static_shape:
        return 0
    shape = list(value_type.shape)
    if sharding is not None and sharding.dims:
        mesh = meshes.mesh_of(sharding)
        for i, dim in enumerate(sharding.dims[:len(shape)]):
            shape[i] = math.ceil(shape[i] / dim.size(mesh))
    return math.prod(shape) * element_bytes(value_type.element_type)


def rank_of(value_type: ir.Type) -> int:
    """The rank a sharding of this type has (0 for a non-tensor)."""
    t = tensor_type(value_type)
    return t.rank if t is not None else 0

