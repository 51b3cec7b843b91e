"""The op interfaces: every fact about an op that a pass asks, other than
its sharding rule, as a registry filled from `rules/interfaces.yaml` (and a
user's files layered over it, see sdy_dsl.rule_library).

Answers: where does a value's sharding live (so `sharding_of(value)` and
`set_sharding(value, s)` work for any op), which ops are collectives, which
own data-flow edges (`data-flow:`, see DataFlowDecl), and the traits the
engine and heuristics ask (elementwise, terminator, keep-alive, barrier).
The table is keyed by op name (plus optional `when:` conditions), never by
Python branches. The registry of the running pass is `table()`: the run's
(sdy_dsl.runtime.op_registry.active()), carried by the run's context.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from jaxlib.mlir import ir

from ..errors import RuleFileError
from .sharding import TensorSharding, codec
from . import op_registry
from .op_schema import attribute_names, closest_op, dialect_is_known, op_is_known
from .sharding_store import ShardingStore, is_block_arg
from .values import SHARDING_ATTR, operation, rank_of, region_index

@dataclass(frozen=True)
class SlotDecl:
    attr: str
    kind: str  # single | per-value | func-arg-attrs


SAME_SHAPE = "same-shape"


@dataclass(frozen=True)
class Condition:
    """When a declaration applies to an op: attribute values (a string
    attribute compares by its contents) and/or `same-shape` (the first operand
    and the first result have the same shape)."""
    attrs: tuple = ()  # ((name, expected), ...)
    same_shape: bool = False

    def holds(self, op: ir.Operation) -> bool:
        attrs = op.attributes
        for name, expected in self.attrs:
            if name not in attrs:
                return False
            if not any(_attr_equals(attrs[name], e) for e in expected):
                return False
        if self.same_shape:
            if not len(op.operands) or not len(op.results):
                return False
            a, b = op.operands[0].type, op.results[0].type
            if not (isinstance(a, ir.ShapedType) and isinstance(b, ir.ShapedType)):
                return False
            return list(a.shape) == list(b.shape)
        return True


ALWAYS = Condition()


def _attr_equals(attr: ir.Attribute, expected) -> bool:
    if isinstance(attr, ir.StringAttr):
        return attr.value == str(expected)
    if isinstance(attr, ir.BoolAttr) and isinstance(expected, bool):
        return attr.value == expected
    return str(attr) == str(expected)


def condition_from_data(op_name: str, when, loc) -> Condition:
    """`{ATTR: VALUE or [VALUES], ...}` (any of the values) or `same-shape`."""
    if when == SAME_SHAPE:
        return Condition(same_shape=True)
    if not isinstance(when, dict):
        raise loc.error(f"'when' is a mapping of attribute name to value(s), or '{SAME_SHAPE}'")
    for name in when:
        check_attr_names(op_name, [str(name)], when.key_loc(name))
    return Condition(tuple((str(k), tuple(v) if isinstance(v, list) else (v,))
                           for k, v in when.items()))


@dataclass
class DataFlowDecl:
    """Which values of an op own data-flow edges, and what each edge joins.

    `when` holds the conditions; the first declaration of an op whose
    conditions hold applies. Owners are the op's results (`result-owners`)
    and/or the arguments of its regions' blocks (`block-arg-owners`). An edge
    owned by result i joins the sources operand i (`sources: operands`) and
    operand i of the terminator of each listed region (`terminators`), and its
    non-owner targets are argument i of the listed regions' blocks
    (`non-owner-targets`). An edge owned by block argument i joins operand i
    of the op. `strip-manual-axes: ATTR` says the block-argument owner
    shardings are the in-shardings without the manual axes named in ATTR.
    """
    when: Condition = ALWAYS
    result_owners: bool = False
    block_arg_owners: bool = False
    source_operands: bool = False
    source_terminators: tuple = ()  # "all" or region indices
    non_owner_target_regions: tuple = ()
    strip_manual_axes: str | None = None
    keep_divisible: bool = False  # shouldKeepEdgeOwnerShardingsDivisible

    def applies_to(self, op: ir.Operation) -> bool:
        return self.when.holds(op)

    def terminator_is_source(self, region_index: int) -> bool:
        return self.source_terminators == ("all",) or region_index in self.source_terminators


TRAITS = ("elementwise", "terminator", "keep-alive", "constant-like", "dot", "reshape")


@dataclass
class OpInterfaces:
    results: SlotDecl | None = None
    block_args: SlotDecl | None = None
    collective: dict | None = None
    data_flow: list = field(default_factory=list)  # of DataFlowDecl
    traits: dict = field(default_factory=dict)  # trait name -> Condition
    barrier_attr: str | None = None  # direction attribute of a propagation barrier
    edge_kind: str | None = None  # an edge op: "data-flow" or "func-call"
    callee_attr: str | None = None  # a call op: the attribute naming its callee

    def merged_over(self, previous: "OpInterfaces", keys) -> "OpInterfaces":
        """This (a later file's) declaration over `previous`: the keys it
        declares replace, except data-flow declarations, which are tried first."""
        merged = replace(previous, data_flow=list(previous.data_flow), traits=dict(previous.traits))
        for key, name in _REPLACED_FIELDS.items():
            if key in keys:
                setattr(merged, name, getattr(self, name))
        if "data-flow" in keys:
            merged.data_flow = self.data_flow + merged.data_flow
        for trait in TRAITS:
            if trait in keys:
                if trait in self.traits:
                    merged.traits[trait] = self.traits[trait]
                else:
                    merged.traits.pop(trait, None)
        return merged


_OP_KEYS = ("results", "block-args", "collective", "data-flow", "barrier", "edge", "call") + TRAITS
# YAML key -> the OpInterfaces field a later file's declaration replaces.
_REPLACED_FIELDS = {"results": "results", "block-args": "block_args", "collective": "collective",
                    "barrier": "barrier_attr", "edge": "edge_kind", "call": "callee_attr"}
EDGE_KINDS = ("data-flow", "func-call")
_COLLECTIVE_KEYS = ("allow-different-meshes", "allow-missing-input-sharding")


class InterfaceRegistry:
    """The op interfaces of one run: the built-in file, then users' files over it."""

    def __init__(self):
        self.ops: dict[str, OpInterfaces] = {}
        self.default = OpInterfaces(results=SlotDecl(SHARDING_ATTR, "per-value"))
        self.erasable_dialects: tuple[str, ...] = ()
        self.sources: list[Path] = []
        self._slots: dict = {}

    # ------------------------------------------------------------------ loading
    def add_layer(self, doc, path: Path) -> None:
        """Layer one interfaces file over the ones before it: `doc` is the file
        as loaded from YAML (mappings with the locations of their keys and
        values, see sdy_dsl/interp/yaml_loader.py), read above the runtime."""
        if not isinstance(doc, dict):
            raise RuleFileError(path, 1, 1, "an interfaces file is a mapping with 'ops:'")
        for key in doc:
            if key not in ("default", "ops", "erasable-dialects"):
                raise doc.key_loc(key).error(
                    f"unknown key '{key}' (expected 'default', 'ops' or 'erasable-dialects')")
        if "default" in doc:
            self.default = self._decl("", doc["default"], doc.loc_of("default"))
        if "erasable-dialects" in doc:
            dialects = doc["erasable-dialects"]
            if not isinstance(dialects, list) or not all(isinstance(d, str) for d in dialects):
                raise doc.loc_of("erasable-dialects").error("'erasable-dialects' is a list of dialect names")
            self.erasable_dialects = tuple(f"{d}." for d in dialects)
        ops = doc.get("ops") or {}
        if not isinstance(ops, dict):
            raise doc.loc_of("ops").error("'ops' is a mapping from op names to their interfaces")
        for name, body in ops.items():
            loc = ops.key_loc(name)
            if not isinstance(name, str):
                raise loc.error(f"expected an op name like 'stablehlo.add', got {name!r}")
            check_op_name(name, loc)
            if body == "delete":  # a user's file removes a built-in declaration
                self.ops.pop(name, None)
                continue
            decl = self._decl(name, body, ops.loc_of(name))
            previous = self.ops.get(name)
            self.ops[name] = decl if previous is None else decl.merged_over(previous, set(body))
        self.sources.append(Path(path))
        self._slots.clear()

    def _decl(self, op_name: str, body, loc) -> OpInterfaces:
        if not isinstance(body, dict):
            raise loc.error("expected a mapping of interface declarations (or 'delete')")
        decl = OpInterfaces()
        for key, value in body.items():
            vloc = body.loc_of(key)
            if key == "results":
                decl.results = self._slot(value, vloc, allow_func=False)
            elif key == "block-args":
                decl.block_args = self._slot(value, vloc, allow_func=True)
            elif key == "collective":
                if not isinstance(value, dict):
                    raise vloc.error("'collective' is a mapping: " + ", ".join(_COLLECTIVE_KEYS))
                for k in value:
                    if k not in _COLLECTIVE_KEYS:
                        raise value.key_loc(k).error(f"collective: unknown key '{k}' (expected one of: "
                                                     + ", ".join(_COLLECTIVE_KEYS) + ")")
                decl.collective = dict(value)
            elif key == "data-flow":
                items = value if isinstance(value, list) else [value]
                locs = value.item_locs if isinstance(value, list) else [vloc]
                decl.data_flow = [self._data_flow(op_name, item, iloc) for item, iloc in zip(items, locs)]
            elif key in TRAITS:
                condition = self._trait(op_name, key, value, vloc)
                if condition is not None:
                    decl.traits[key] = condition
            elif key == "barrier":
                if not isinstance(value, dict) or set(value) != {"direction-attr"}:
                    raise vloc.error("'barrier' is {direction-attr: ATTR}")
                decl.barrier_attr = str(value["direction-attr"])
                check_attr_names(op_name, [decl.barrier_attr], value.loc_of("direction-attr"))
            elif key == "edge":
                if value not in EDGE_KINDS:
                    raise vloc.error(f"'edge' is one of: {', '.join(EDGE_KINDS)}")
                decl.edge_kind = str(value)
            elif key == "call":
                if not isinstance(value, dict) or set(value) != {"callee-attr"}:
                    raise vloc.error("'call' is {callee-attr: ATTR}")
                decl.callee_attr = str(value["callee-attr"])
                check_attr_names(op_name, [decl.callee_attr], value.loc_of("callee-attr"))
            else:
                raise body.key_loc(key).error(f"unknown interface '{key}' (expected one of: "
                                              + ", ".join(_OP_KEYS) + ")")
        return decl

    @staticmethod
    def _condition(op_name: str, when, loc) -> Condition:
        return condition_from_data(op_name, when, loc)

    def _trait(self, op_name, trait: str, value, loc) -> Condition | None:
        if value is True:
            return ALWAYS
        if value is False:
            return None
        if isinstance(value, dict) and set(value) == {"when"}:
            return self._condition(op_name, value["when"], value.loc_of("when"))
        raise loc.error(f"'{trait}' is true, false or {{when: CONDITION}}")

    def _data_flow(self, op_name: str, body, loc) -> DataFlowDecl:
        if not isinstance(body, dict):
            raise loc.error("a data-flow declaration is a mapping (owners, sources, ...)")
        known = ("when", "owners", "sources", "non-owner-targets", "strip-manual-axes", "keep-divisible")
        for key in body:
            if key not in known:
                raise body.key_loc(key).error(f"data-flow: unknown key '{key}' (expected one of: {', '.join(known)})")
        decl = DataFlowDecl()
        if "when" in body:
            decl.when = self._condition(op_name, body["when"], body.loc_of("when"))
        owners = body.get("owners") or []
        for owner in owners:
            if owner not in ("results", "block-args"):
                raise body.loc_of("owners").error(f"unknown owner kind '{owner}' (expected results or block-args)")
        decl.result_owners = "results" in owners
        decl.block_arg_owners = "block-args" in owners
        for source in body.get("sources") or []:
            if source == "operands":
                decl.source_operands = True
            elif isinstance(source, dict) and set(source) == {"terminators"}:
                regions = source["terminators"]
                decl.source_terminators = ("all",) if regions == "all" else tuple(int(r) for r in regions)
            else:
                raise body.loc_of("sources").error("a source is 'operands' or {terminators: all | [REGION, ...]}")
        targets = body.get("non-owner-targets") or {}
        if targets:
            if not isinstance(targets, dict) or set(targets) != {"block-args-of"}:
                raise body.loc_of("non-owner-targets").error("expected {block-args-of: [REGION, ...]}")
            decl.non_owner_target_regions = tuple(int(r) for r in targets["block-args-of"])
        decl.keep_divisible = bool(body.get("keep-divisible", False))
        if "strip-manual-axes" in body:
            decl.strip_manual_axes = str(body["strip-manual-axes"])
            check_attr_names(op_name, [decl.strip_manual_axes], body.loc_of("strip-manual-axes"))
        return decl

    @staticmethod
    def _slot(value, loc, allow_func) -> SlotDecl:
        if not isinstance(value, dict):
            raise loc.error("expected {attr: NAME, kind: single|per-value}")
        if allow_func and "func-arg-attrs" in value:
            return SlotDecl(value["func-arg-attrs"], "func-arg-attrs")
        kind = value.get("kind", "per-value")
        if kind not in ("single", "per-value"):
            raise value.loc_of("kind").error(f"unknown slot kind '{kind}' (expected single or per-value)")
        if "attr" not in value:
            raise loc.error("missing 'attr'")
        return SlotDecl(value["attr"], kind)

    # ------------------------------------------------------------------ queries
    def of(self, op_name: str) -> OpInterfaces:
        return self.ops.get(op_name, self.default)

    def result_slot(self, op_name: str) -> SlotDecl | None:
        """Where an op keeps its results' shardings."""
        try:
            return self._slots[op_name]
        except KeyError:
            slot = self._slots[op_name] = self.of(op_name).results or self.default.results
            return slot

    def is_collective(self, op_name: str) -> bool:
        decl = self.ops.get(op_name)
        return decl is not None and decl.collective is not None

    def data_flow(self, op) -> DataFlowDecl | None:
        """The data-flow declaration that applies to an op, if any."""
        op = operation(op)
        decl = self.ops.get(op.name)
        if decl is None:
            return None
        for df in decl.data_flow:
            if df.applies_to(op):
                return df
        return None

    def has_trait(self, op: ir.Operation, trait: str) -> bool:
        decl = self.ops.get(op.name)
        if decl is None:
            return False
        condition = decl.traits.get(trait)
        return condition is not None and (condition is ALWAYS or condition.holds(op))

    def trait_by_name(self, op_name: str, trait: str) -> bool | None:
        """Whether every op named `op_name` has the trait (True), none does
        (False), or it depends on the op (None: ask has_trait)."""
        decl = self.ops.get(op_name)
        condition = decl.traits.get(trait) if decl is not None else None
        if condition is None:
            return False
        return True if condition is ALWAYS else None

    def is_terminator(self, op: ir.Operation) -> bool:
        return self.has_trait(op, "terminator")

    def is_elementwise(self, op: ir.Operation) -> bool:
        return self.has_trait(op, "elementwise")

    def is_constant_like(self, value: ir.Value) -> bool:
        """Whether `value` is the result of a constant-like op."""
        return isinstance(value, ir.OpResult) and self.has_trait(value.owner.operation, "constant-like")

    def edge_kind(self, op_name: str) -> str | None:
        decl = self.ops.get(op_name)
        return decl.edge_kind if decl is not None else None

    def callee_attr(self, op_name: str) -> str | None:
        decl = self.ops.get(op_name)
        return decl.callee_attr if decl is not None else None

    def barrier_attr(self, op_name: str) -> str | None:
        decl = self.ops.get(op_name)
        return decl.barrier_attr if decl is not None else None

    def is_erasable(self, op: ir.Operation) -> bool:
        """Whether `op` (with everything nested in it) may be erased when unused."""
        if not op.name.startswith(self.erasable_dialects) or self.has_trait(op, "keep-alive"):
            return False
        for region in op.regions:
            for block in region.blocks:
                for nested in block.operations:
                    if not self.is_erasable(nested.operation):
                        return False
        return True


# --------------------------------------------------------------------------- checking names


def check_op_name(name: str, loc) -> None:
    """A located error for an op name whose dialect is known but the op is not
    (a misspelling such as 'stablehlo.custom_cal')."""
    if "." not in name:
        raise loc.error(f"expected an op name like 'stablehlo.add', got '{name}'")
    if dialect_is_known(name.split(".", 1)[0]) and not op_is_known(name):
        hint = closest_op(name)
        raise loc.error(f"unknown op '{name}'" + (f"; did you mean '{hint}'?" if hint else ""))


def check_attr_names(op_name: str, names, loc) -> None:
    """A located error for an attribute name the op does not define."""
    known = attribute_names(op_name)
    if known is None:
        return
    for name in names:
        if name not in known and not name.startswith(("sdy.", "mhlo.", "mpmd.")):
            raise loc.error(f"op '{op_name}' has no attribute '{name}'; it has: "
                            + ", ".join(sorted(known)))


# --------------------------------------------------------------------------- value shardings


def table() -> InterfaceRegistry:
    """The op interfaces of the running pass (the built-in ones outside a run)."""
    return op_registry.active().interfaces


def _located(value: ir.Value, store: ShardingStore):
    """(the value whose slot holds `value`'s sharding, where that slot is) or
    (value, None). A non-owner target of a data-flow edge (a while's block
    argument) keeps its sharding on the edge owner, the op's result. The value
    is located once (finding an op from a value builds an op view)."""
    where = store.locate(value)
    if where is not None or not is_block_arg(value):
        return value, where
    block = value.owner
    op = operation(block.owner)
    flow = table().data_flow(op)
    if flow is not None and flow.result_owners and \
            region_index(op, block) in flow.non_owner_target_regions:
        owner = op.results[ir.BlockArgument(value).arg_number]
        return owner, store.locate(owner)
    return value, None


def _slot_of(value: ir.Value):
    """(op, SlotDecl, index) of where `value`'s sharding lives, or None."""
    return _located(value, ShardingStore(table()))[1]


def sharding_of(value: ir.Value) -> TensorSharding | None:
    """The sharding of a value, wherever its op keeps it; None if it has none.

    (Manual axes included: this is the attribute's view, not an edge's.)"""
    store = _raw_store()
    target, where = _located(value, store)
    return store.get(target, where) if where is not None else None


def set_sharding(value: ir.Value, sharding: TensorSharding | None) -> bool:
    """Set (None: clear) a value's sharding; returns whether anything changed.

    For per-value slots whose op has no attribute yet, the other results get a
    fully open replicated sharding on the same mesh (what Shardy does)."""
    store = _raw_store()
    target, where = _located(value, store)
    if where is None:
        raise ValueError(f"'{_owner_name(value)}' has no sharding slot for this value")
    return store.set(target, sharding, where)


class _RawStore(ShardingStore):
    """The attribute's own view: no manual axes stripped (rules see the IR)."""

    def _manual_axes(self, op, decl, is_block_arg):
        return None


def _raw_store() -> ShardingStore:
    return _RawStore(table())


def _owner_name(value: ir.Value) -> str:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return operation(owner.owner).name
    return operation(owner).name


# --------------------------------------------------------------------------- data-flow edges

DATA_FLOW_EDGE = "sdy.data_flow_edge"


def data_flow_result_owners(op) -> list:
    """The results of `op` that own data-flow edges (all of them, or none)."""
    op = operation(op)
    decl = table().data_flow(op)
    return list(op.results) if decl is not None and decl.result_owners else []


def data_flow_block_arg_owners(op) -> list:
    """The block arguments of `op`'s (single-block) body that own data-flow edges."""
    op = operation(op)
    decl = table().data_flow(op)
    if decl is None or not decl.block_arg_owners or not len(op.regions):
        return []
    return list(op.regions[0].blocks[0].arguments)


def _owner_decl(value: ir.Value):
    """(op, DataFlowDecl, is_block_arg, index) of the op a value belongs to."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        op = operation(owner.owner)
        return op, table().data_flow(op), True, ir.BlockArgument(value).arg_number
    op = operation(owner)
    return op, table().data_flow(op), False, ir.OpResult(value).result_number


def edge_owner_sharding(owner: ir.Value) -> TensorSharding | None:
    """The sharding an edge owner keeps on its op (manual axes stripped where
    declared); for a non-owner target (a while body argument), its owner's."""
    store = ShardingStore(table())
    target, where = _located(owner, store)
    return store.get(target, where) if where is not None else None


def set_edge_owner_shardings(op, owners: list, shardings: list) -> bool:
    """Set the shardings of all block-argument owners or all result owners of `op`
    (manual axes re-added where declared)."""
    store = ShardingStore(table(), buffered=True)
    changed = False
    for owner, sharding in zip(owners, shardings):
        changed |= store.set(owner, sharding)
    store.flush()
    return changed


def edge_owner_of_target(target: ir.Value) -> ir.Value | None:
    """The owner of the data-flow edge that `target` belongs to, if any."""
    op, decl, is_block_arg, index = _owner_decl(target)
    if decl is None:
        return None
    if not is_block_arg:
        return target if decl.result_owners else None
    if decl.block_arg_owners:
        return target
    region = region_index(op, target.owner)
    if region in decl.non_owner_target_regions:
        return op.results[index]
    return None




def shardable_value(value: ir.Value) -> ir.Value:
    """The value whose sharding stands for `value`'s (Shardy's getShardableValue
    when edges exist): the data-flow edge of `value`'s edge owner if there is
    one, else that owner (a while body argument -> the while result), else
    `value` itself."""
    owner = edge_owner_of_target(value)
    if owner is None:
        return value
    edge = data_flow_edge_of(owner)
    return edge.results[0] if edge is not None else owner


def sharding_through_edge(value: ir.Value) -> TensorSharding | None:
    """Shardy's getSharding: a data-flow edge target's sharding is its edge's
    (when the edge exists), not the one its owner op stores."""
    edge = data_flow_edge_of(edge_owner_of_target(value))
    if edge is not None:
        return codec.tensor_sharding(edge.attributes["sharding"]) if "sharding" in edge.attributes else None
    return sharding_of(value)


def set_sharding_through_edge(value: ir.Value, sharding: TensorSharding) -> None:
    """Shardy's setSharding: on the data-flow edge of `value` if it has one."""
    edge = data_flow_edge_of(edge_owner_of_target(value))
    if edge is not None:
        edge.attributes["sharding"] = codec.tensor_sharding_attr(sharding)
    else:
        set_sharding(value, sharding)


def data_flow_edge_of(owner: ir.Value | None):
    """The `sdy.data_flow_edge` op that is the single user of `owner`, if any."""
    if owner is None:
        return None
    uses = list(owner.uses)
    if len(uses) != 1:
        return None
    user = operation(uses[0].owner)
    return user if user.name == DATA_FLOW_EDGE else None


def shardings_of_edges(owners: list) -> list:
    """Shardy's getShardingsFromDataFlowEdges: the owners' edge shardings, an
    unsharded (or missing) edge fully open on the first sharded edge's mesh;
    empty when no edge has a sharding."""
    found = []
    for owner in owners:
        edge = data_flow_edge_of(owner)
        found.append(codec.tensor_sharding(edge.attributes["sharding"])
                     if edge is not None and "sharding" in edge.attributes else None)
    first = next((s for s in found if s is not None), None)
    if first is None:
        return []
    return [s if s is not None else TensorSharding.replicated_like(
        first.mesh_name, rank_of(owner.type), is_closed=False, inline_mesh=first.inline_mesh)
        for s, owner in zip(found, owners)]
