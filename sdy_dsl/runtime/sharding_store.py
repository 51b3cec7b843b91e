"""The sharding store: where each value's sharding lives, read and written.

Where a value's sharding lives is the op registry's slot declaration
(rules/interfaces.yaml): an op's `sdy.sharding`, a single attribute
(`sharding`, a collective's `out_sharding`), per-value `in_shardings` /
`out_shardings`, or `sdy.sharding` in a func's arg/res attributes. Edge
owners that strip manual axes (a manual computation's block arguments) are
read without them and written back with them.

Two modes, one slot logic:
- `ShardingStore(table)` reads and writes the IR at once (rule-based passes,
  whose patterns read the attributes themselves);
- `ShardingStore(table, buffered=True)` reads each slot once, keeps it in
  plain Python while a pass works (propagation) and writes every changed
  slot back once, on `flush()`.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from .sharding import DimSharding, TensorSharding, codec
from .values import operation, rank_of

FUNC_ARGS, FUNC_RESULTS = "arg_attrs", "res_attrs"


def fully_open(mesh_name, rank: int, inline_mesh=None) -> TensorSharding:
    return TensorSharding(mesh_name, tuple(DimSharding((), False) for _ in range(rank)),
                          inline_mesh=inline_mesh)


def erase_manual_axes(sharding: TensorSharding, manual_axes) -> TensorSharding:
    """The sharding with the manual axes dropped (dims, replicated, unreduced)."""
    manual = set(manual_axes)

    def kept(axes: tuple) -> tuple:  # (the same tuple when it has none: its dim is kept)
        for a in axes:
            if a.name in manual:
                return tuple(a for a in axes if a.name not in manual)
        return axes

    return sharding.map_axes(kept)


def add_free_axes(outer: TensorSharding, free: TensorSharding, manual_axes) -> TensorSharding:
    """Shardy's addFreeAxesToManualComputationSharding: `outer`'s manual axes
    followed by `free`'s axes in each dim (open/closed and priority of `free`),
    on `free`'s mesh, with `outer`'s replicated and unreduced axes."""
    manual = set(manual_axes)
    dims = tuple(DimSharding(tuple(a for a in old_dim.axes if a.name in manual) + new_dim.axes,
                             new_dim.is_closed, new_dim.priority)
                 for old_dim, new_dim in zip(outer.dims, free.dims))
    return TensorSharding(free.mesh_name, dims, outer.replicated, outer.unreduced, free.inline_mesh)


class ShardingStore:
    def __init__(self, table, buffered: bool = False):
        self.table = table  # the InterfaceRegistry of the run
        self.buffered = buffered
        self._slots: dict = {}  # (op, attr) -> list of shardings (None: absent)
        self._dirty: dict = {}  # (op, attr) -> (kind, shardings) of a changed slot (buffered mode)
        # value -> where its sharding lives (buffered mode: the IR's structure does not
        # change while a pass works on the buffer, but for erased ops, never asked again)
        self._located: dict = {}
        self._reads: dict = {}  # value -> (slot key, position, manual axes) (buffered mode)
        # value -> its sharding as `get` returns it (buffered mode; a value is in
        # it once read, until its sharding changes)
        self.current: dict = {}
        # With an interner (sharding -> small int, None -> 0; propagation's):
        # value -> the token of its current sharding (None stands for "no
        # place to keep one", token 0), kept like `current`.
        self.intern = None
        self.tokens: dict = {None: 0}
        self.version = 0  # counts the changes `set` and `set_func_result` made
        self.owners: dict = {}  # op result -> its op, where a caller knows it (see locate)
        # Called with each value whose sharding a `set` changed (propagation
        # uses it to know which ops' inputs changed).
        self.on_change = None

    def _locate(self, value: ir.Value):
        if not self.buffered:
            return self.locate(value)
        try:
            return self._located[value]
        except KeyError:
            where = self._located[value] = self.locate(value)
            return where

    # ------------------------------------------------------------------ locating
    def locate(self, value: ir.Value):
        """(op, SlotDecl, index) of the slot holding `value`'s sharding, or None."""
        if isinstance(value, ir.OpResult):
            # (`value.owner` builds an op view: a known owner is cheaper)
            op = self.owners.get(value)
            owner = op if op is not None else value.owner
        else:
            owner = value.owner
        if isinstance(owner, ir.Block):
            op = owner.owner.operation
            decl = self.table.of(op.name).block_args
            if decl is None:
                return None
            return op, decl, ir.BlockArgument(value).arg_number
        op = owner.operation
        decl = self.table.result_slot(op.name)
        if decl is None:
            return None
        return op, decl, ir.OpResult(value).result_number

    def _manual_axes(self, op: ir.Operation, decl, is_block_arg: bool):
        if not is_block_arg or decl.kind == "func-arg-attrs":
            return None
        flow = self.table.data_flow(op)
        if flow is None or not flow.strip_manual_axes:
            return None
        return codec.manual_axes(op.attributes[flow.strip_manual_axes]).axes

    # ------------------------------------------------------------------ reading
    def _read(self, op: ir.Operation, attr: str, kind: str, values) -> list:
        attrs = op.attributes
        if kind == "func-arg-attrs":
            if attr not in attrs:
                return [None] * len(values)
            out = []
            for d in ir.ArrayAttr(attrs[attr]):
                d = ir.DictAttr(d)
                out.append(codec.tensor_sharding(d["sdy.sharding"]) if "sdy.sharding" in d else None)
            return out
        if attr not in attrs:
            return [None] * (1 if kind == "single" else len(values))
        if kind == "single":
            return [codec.tensor_sharding(attrs[attr])]
        return list(codec.sharding_per_value(attrs[attr]))

    def _slot(self, op: ir.Operation, attr: str, kind: str, values_of) -> list:
        """The slot's shardings; `values_of()` gives the values it holds (asked only
        when it is read from the IR)."""
        if not self.buffered:
            return self._read(op, attr, kind, values_of())
        key = (op, attr)
        try:
            return self._slots[key]
        except KeyError:
            found = self._slots[key] = self._read(op, attr, kind, values_of())
            return found

    def _values_of(self, op: ir.Operation, decl, is_block_arg: bool):
        if decl.kind == "func-arg-attrs" or is_block_arg:
            blocks = op.regions[0].blocks
            return blocks[0].arguments if len(blocks) else ()
        return op.results

    def get(self, value: ir.Value, where=None) -> TensorSharding | None:
        """`where`: the value's slot, if the caller located it (see locate)."""
        if self.buffered:
            try:
                return self.current[value]
            except KeyError:
                pass
            found = self.current[value] = self._get(value, where)
            return found
        return self._get(value, where)

    def result_sharding(self, op: ir.Operation, decl, index: int) -> TensorSharding | None:
        """`get` of result `index` of `op`, whose results' slot is `decl` (the
        caller knows both): an unbuffered store reads that one entry."""
        if self.buffered or decl.kind not in ("single", "per-value"):
            return self.get(op.results[index], (op, decl, index))
        attr = op.attributes.get(decl.attr)
        if attr is None:
            return None
        return codec.tensor_sharding(attr) if decl.kind == "single" else codec.sharding_per_value(attr)[index]

    def token(self, value: ir.Value | None) -> int:
        """The interned token of the value's sharding (see `tokens`)."""
        try:
            return self.tokens[value]
        except KeyError:
            pass
        found = self.tokens[value] = self.intern(self.get(value))
        return found

    def _get(self, value: ir.Value, where=None) -> TensorSharding | None:
        if self.buffered:
            read = self._reads.get(value)
            if read is not None:  # (slot key, position, manual axes, kind) found before
                key, position, manual, _ = read
                sharding = self._slots[key][position]
                if manual and sharding is not None:
                    sharding = erase_manual_axes(sharding, manual)
                return sharding
        if where is None:
            where = self._locate(value)
            if where is None:
                return None
        op, decl, index = where
        kind = decl.kind
        if kind == "func-arg-attrs" and not self.buffered:
            return _func_attr_sharding(op, FUNC_ARGS, index)  # one entry, not the whole array
        attr = FUNC_ARGS if kind == "func-arg-attrs" else decl.attr
        block_arg = is_block_arg(value)
        shardings = self._slot(op, attr, kind, lambda: self._values_of(op, decl, block_arg))
        position = 0 if kind == "single" else index
        sharding = shardings[position]
        manual = (self._manual_axes(op, decl, True)
                  if block_arg and kind != "func-arg-attrs" else None)
        if self.buffered:
            self._reads[value] = ((op, attr), position, manual, kind)
        if manual and sharding is not None:
            sharding = erase_manual_axes(sharding, manual)
        return sharding

    def read_results(self, op: ir.Operation, results, attrs=None, name=None) -> None:
        """Read the shardings of an op's results at once (buffered mode; what
        `get` / `token` would read one value at a time); `attrs`, `name`: the
        op's attributes and name, if the caller has them."""
        if not self.buffered or not results or results[0] in self.current:
            return
        decl = self.table.result_slot(op.name if name is None else name)
        if decl is None or decl.kind not in ("single", "per-value"):
            return
        kind, attr = decl.kind, decl.attr
        key = (op, attr)
        shardings = self._slots.get(key)
        if shardings is None:
            if attr in (attrs if attrs is not None else op.attributes):
                shardings = self._read(op, attr, kind, results)
            else:
                shardings = [None] * (1 if kind == "single" else len(results))
            self._slots[key] = shardings
        current, tokens, intern, reads = self.current, self.tokens, self.intern, self._reads
        for index, value in enumerate(results):
            position = 0 if kind == "single" else index
            reads[value] = (key, position, None, kind)
            sharding = current[value] = shardings[position]
            if intern is not None:
                tokens[value] = intern(sharding) if sharding is not None else 0

    def kept_slot_ops(self, attr: str) -> set:
        """The ops whose slot `attr` the store keeps (buffered mode): besides
        the ops that carry `attr`, only these may hold a sharding there (a
        walk over every op asks each op's attributes, and these)."""
        return {op for op, kept_attr in self._slots if kept_attr == attr}

    # ------------------------------------------------------------------ writing
    def set(self, value: ir.Value, sharding: TensorSharding | None, where=None) -> bool:
        """Set (None: clear) a value's sharding; returns whether it changed.

        A per-value slot that does not exist yet gets fully open shardings on
        the same mesh for the op's other values (what Shardy does). `where`:
        the value's slot, if the caller located it."""
        if self.buffered and sharding is not None:
            read = self._reads.get(value)
            if read is not None and read[2] is None:
                # Read before, no manual axes to keep: the slot is in memory.
                key, position, _, kind = read
                shardings = self._slots[key]
                if kind != "per-value" or len(shardings) == 1 or None not in shardings:
                    # (else the op's other values get open shardings: below)
                    if shardings[position] == sharding:
                        return False
                    shardings[position] = sharding
                    self._write_or_mark(key[0], key[1], kind, shardings)
                    self._changed(value, sharding)
                    return True
        if where is None:
            where = self._locate(value)
        if where is None:
            raise ValueError(f"'{_owner_name(value)}' keeps no sharding for this value")
        op, decl, index = where
        block_arg = is_block_arg(value)
        attr = FUNC_ARGS if decl.kind == "func-arg-attrs" else decl.attr
        values = self._values_of(op, decl, block_arg)
        if decl.kind == "func-arg-attrs" and not self.buffered:
            return _set_func_attr_sharding(op, FUNC_ARGS, index, len(values), sharding)
        shardings = self._slot(op, attr, decl.kind, lambda: values)
        position = 0 if decl.kind == "single" else index
        if sharding is not None:
            manual = self._manual_axes(op, decl, block_arg)
            if manual and shardings[position] is not None:
                sharding = add_free_axes(shardings[position], sharding, manual)
        if shardings[position] == sharding:
            return False
        if sharding is None and decl.kind == "per-value":
            if len(shardings) != 1:
                raise ValueError(f"one of the {len(shardings)} shardings of '{op.name}' kept in "
                                 f"'{attr}' cannot be cleared alone")
            shardings = [None]
            if self.buffered:
                self._slots[(op, attr)] = shardings
            self._write_or_mark(op, attr, decl.kind, shardings)
            self._changed(value)
            return True
        if decl.kind == "per-value" and any(s is None for s in shardings):
            filled = [s if s is not None else fully_open(sharding.mesh_name, rank_of(v.type),
                                                         sharding.inline_mesh)
                      for s, v in zip(shardings, values)]
            for v, old in zip(values, shardings):
                if old is None:  # the other values got open shardings too
                    self._changed(v)
            shardings = filled
            if self.buffered:
                self._slots[(op, attr)] = shardings
        shardings[position] = sharding
        self._write_or_mark(op, attr, decl.kind, shardings)
        self._changed(value)
        return True

    def replace(self, value: ir.Value, sharding: TensorSharding, token: int) -> None:
        """`set` for a caller that knows `sharding` differs from the value's
        current one and its interned token (propagation's memoized steps)."""
        read = self._reads.get(value) if self.buffered else None
        if read is not None and read[2] is None:
            key, position, _, kind = read
            shardings = self._slots[key]
            if kind != "per-value" or len(shardings) == 1 or None not in shardings:
                shardings[position] = sharding
                self._dirty[key] = (kind, shardings)
                self.version += 1
                self.current[value] = sharding
                self.tokens[value] = token
                if self.on_change is not None:
                    self.on_change(value)
                return
        self.set(value, sharding)

    def _changed(self, value: ir.Value, now=None) -> None:
        """`value`'s sharding changed; `now`: what `get` returns for it now, if
        known (else it is read again when asked)."""
        self.version += 1
        if now is None:
            self.current.pop(value, None)
            self.tokens.pop(value, None)
        else:
            self.current[value] = now
            if self.intern is not None:
                self.tokens[value] = self.intern(now)
        if self.on_change is not None:
            self.on_change(value)

    def func_result(self, func: ir.Operation, index: int) -> TensorSharding | None:
        return self.func_results(func)[index]

    def func_results(self, func: ir.Operation) -> list:
        """The shardings of the func's results (buffered mode: the store's own
        list, which set_func_result updates in place)."""
        return self._slot(func, FUNC_RESULTS, "func-arg-attrs", lambda: _func_results(func))

    def set_func_result(self, func: ir.Operation, index: int, sharding: TensorSharding | None) -> bool:
        shardings = self._slot(func, FUNC_RESULTS, "func-arg-attrs", lambda: _func_results(func))
        if shardings[index] == sharding:
            return False
        shardings[index] = sharding
        self.version += 1
        self._write_or_mark(func, FUNC_RESULTS, "func-arg-attrs", shardings, index)
        return True

    def _write_or_mark(self, op, attr, kind, shardings, index=None) -> None:
        if self.buffered:
            self._dirty[(op, attr)] = (kind, shardings)
            return
        _write(op, attr, kind, shardings)

    def flush(self) -> None:
        """Write every changed slot back to the IR (buffered mode).

        Writes are gathered first: an ir.Operation's hash changes when its
        attributes do, so no op-keyed lookup may follow a write."""
        writes = list(self._dirty.items())
        self._dirty.clear()
        # kind -> (the ids of a slot's shardings) -> their attribute (None: none): writes
        # repeat the same sharding objects (all alive until the loop ends)
        encoded: dict = {"single": {}, "per-value": {}}
        for (op, attr), (kind, shardings) in writes:
            by_ids = encoded.get(kind)
            if by_ids is None:  # (entries of a func's arg/res attrs)
                _write(op, attr, kind, shardings)
                continue
            key = id(shardings[0]) if len(shardings) == 1 else tuple([id(s) for s in shardings])
            value = by_ids.get(key, _NOT_ENCODED)
            if value is _NOT_ENCODED:
                value = by_ids[key] = _slot_attr(kind, shardings)
            _set_attr(op, attr, value)
        self._slots.clear()
        self._located.clear()
        self._reads.clear()
        self.current.clear()
        self.tokens = {None: 0}
        self.owners.clear()

    def forget(self, op: ir.Operation) -> None:
        """Drop an op about to be erased."""
        for key in [k for k in self._dirty if k[0] == op]:
            del self._dirty[key]
        for key in [k for k in self._slots if k[0] == op]:
            del self._slots[key]
        self._reads.clear()
        self.current.clear()
        self.tokens = {None: 0}


def is_block_arg(value: ir.Value) -> bool:
    """Whether a value is a block argument (bindings hand out typed values; a
    plain ir.Value is asked its owner)."""
    if isinstance(value, ir.BlockArgument):
        return True
    return not isinstance(value, ir.OpResult) and isinstance(value.owner, ir.Block)


def _func_results(func: ir.Operation):
    ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    return ftype.results


def _func_attr_sharding(func: ir.Operation, key: str, index: int) -> TensorSharding | None:
    """The `sdy.sharding` in entry `index` of a func's arg/res attrs (None: absent)."""
    attrs = func.attributes
    if key not in attrs:
        return None
    d = ir.DictAttr(ir.ArrayAttr(attrs[key])[index])
    return codec.tensor_sharding(d["sdy.sharding"]) if "sdy.sharding" in d else None


def _set_func_attr_sharding(func: ir.Operation, key: str, index: int, count: int,
                            sharding: TensorSharding | None) -> bool:
    """Set (None: clear) one entry's `sdy.sharding`; returns whether it changed."""
    if _func_attr_sharding(func, key, index) == sharding:
        return False
    shardings = [None] * count
    shardings[index] = sharding
    _write_func_attr_shardings(func, key, shardings, only=index)
    return True


def _write(op: ir.Operation, attr: str, kind: str, shardings) -> None:
    if kind in ("single", "per-value"):
        _set_attr(op, attr, _slot_attr(kind, shardings))
    else:
        _write_func_attr_shardings(op, attr, shardings)


_NOT_ENCODED = object()


def _slot_attr(kind: str, shardings) -> ir.Attribute | None:
    """The attribute of a single or per-value slot (None: it holds no sharding)."""
    if kind == "single":
        return None if shardings[0] is None else codec.tensor_sharding_attr(shardings[0])
    if all(s is None for s in shardings):
        return None
    return codec.sharding_per_value_attr(shardings)


def _set_attr(op: ir.Operation, attr: str, value: ir.Attribute | None) -> None:
    """Set (None: remove) an op's attribute."""
    if value is not None:
        op.attributes[attr] = value
    elif attr in op.attributes:
        del op.attributes[attr]


def _write_func_attr_shardings(func: ir.Operation, key: str, shardings, only: int | None = None) -> None:
    """Write the shardings into a func's arg/res attrs (`only`: just that entry)."""
    attrs = func.attributes
    if key in attrs:
        dicts = list(ir.ArrayAttr(attrs[key]))
    else:
        if all(s is None for s in shardings):
            return
        dicts = [ir.DictAttr.get({}) for _ in shardings]
    changed = False
    for index, sharding in enumerate(shardings):
        if only is not None and index != only:
            continue
        d = ir.DictAttr(dicts[index])
        current = codec.tensor_sharding(d["sdy.sharding"]) if "sdy.sharding" in d else None
        if current == sharding:
            continue
        entries = {n.name: n.attr for n in d}
        if sharding is None:
            entries.pop("sdy.sharding", None)
        else:
            entries["sdy.sharding"] = codec.tensor_sharding_attr(sharding)
        dicts[index] = ir.DictAttr.get(entries)
        changed = True
    if changed:
        attrs[key] = ir.ArrayAttr.get(dicts)


def _owner_name(value: ir.Value) -> str:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return operation(owner.owner).name
    return operation(owner).name
