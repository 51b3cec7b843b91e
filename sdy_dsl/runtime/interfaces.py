"""The op interfaces as a registry filled from `rules/interfaces.yaml`.

Answers: where does a value's sharding live (so `sharding_of(value)` and
`set_sharding(value, s)` work for any op), which ops are collectives and with
which properties, which ops own data-flow edges (`data-flow:`, see
DataFlowDecl). The table is keyed by op name (plus optional `when:` attribute
conditions), never by Python branches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jaxlib.mlir import ir

from ..errors import RuleFileError
from .sharding import TensorSharding, codec
from .values import SHARDING_ATTR, operation, set_func_sharding

RULES_DIR = Path(__file__).resolve().parent.parent.parent / "rules"


@dataclass(frozen=True)
class SlotDecl:
    attr: str
    kind: str  # single | per-value | func-arg-attrs


@dataclass
class DataFlowDecl:
    """Which values of an op own data-flow edges, and what each edge joins.

    `when` holds attribute conditions (name -> printed value or string); the
    first declaration of an op whose conditions hold applies. Owners are the
    op's results (`result-owners`) and/or the arguments of its regions' blocks
    (`block-arg-owners`). An edge owned by result i joins the sources
    operand i (`sources: operands`) and operand i of the terminator of each
    listed region (`terminators`), and its non-owner targets are argument i
    of the listed regions' blocks (`non-owner-targets`). An edge owned by
    block argument i joins operand i of the op and result i's terminator
    operand. `strip-manual-axes: ATTR` says the block-argument owner
    shardings are the in-shardings without the manual axes named in ATTR.
    """
    when: dict = field(default_factory=dict)
    result_owners: bool = False
    block_arg_owners: bool = False
    source_operands: bool = False
    source_terminators: tuple = ()  # "all" or region indices
    non_owner_target_regions: tuple = ()
    strip_manual_axes: str | None = None
    keep_divisible: bool = False  # shouldKeepEdgeOwnerShardingsDivisible

    def applies_to(self, op: ir.Operation) -> bool:
        attrs = op.attributes
        for name, expected in self.when.items():
            if name not in attrs:
                return False
            attr = attrs[name]
            if isinstance(attr, ir.StringAttr):
                if ir.StringAttr(attr).value != str(expected):
                    return False
            elif str(attr) != str(expected):
                return False
        return True


@dataclass
class OpInterfaces:
    results: SlotDecl | None = None
    block_args: SlotDecl | None = None
    collective: dict | None = None
    data_flow: list = field(default_factory=list)  # of DataFlowDecl
    extra: dict = field(default_factory=dict)


class InterfaceRegistry:
    def __init__(self):
        self.ops: dict[str, OpInterfaces] = {}
        self.default = OpInterfaces(results=SlotDecl(SHARDING_ATTR, "per-value"))
        self.sources: list[Path] = []

    # ------------------------------------------------------------------ loading
    def load(self, path: Path) -> None:
        from ..interp.yaml_loader import load_yaml  # local: interp depends on runtime

        doc = load_yaml(path)
        if not isinstance(doc, dict):
            raise RuleFileError(path, 1, 1, "an interfaces file is a mapping with 'ops:'")
        for key in doc:
            if key not in ("default", "ops"):
                loc = doc.key_loc(key)
                raise loc.error(f"unknown key '{key}' (expected 'default' or 'ops')")
        if "default" in doc:
            self.default = self._decl(doc["default"], doc.loc_of("default"))
        if not isinstance(doc.get("ops") or {}, dict):
            raise doc.loc_of("ops").error("'ops' is a mapping of op name to interface declarations")
        for name, body in (doc.get("ops") or {}).items():
            decl = self._decl(body, doc["ops"].loc_of(name))
            previous = self.ops.get(name)
            if previous is not None:
                # A later file (a user's rules directory) refines an op: its
                # data-flow declarations are tried first, the rest is kept
                # unless redeclared.
                decl.data_flow = decl.data_flow + previous.data_flow
                decl.results = decl.results or previous.results
                decl.block_args = decl.block_args or previous.block_args
                decl.collective = decl.collective if decl.collective is not None else previous.collective
            self.ops[name] = decl
        self.sources.append(Path(path))

    def _decl(self, body, loc) -> OpInterfaces:
        if not isinstance(body, dict):
            raise loc.error("expected a mapping of interface declarations")
        decl = OpInterfaces()
        for key, value in body.items():
            vloc = body.loc_of(key)
            if key == "results":
                decl.results = self._slot(value, vloc, allow_func=False)
            elif key == "block-args":
                decl.block_args = self._slot(value, vloc, allow_func=True)
            elif key == "collective":
                if not isinstance(value or {}, dict):
                    raise vloc.error("'collective' is a mapping")
                decl.collective = dict(value or {})
            elif key == "data-flow":
                items = value if isinstance(value, list) else [value]
                locs = value.item_locs if isinstance(value, list) else [vloc]
                decl.data_flow = [self._data_flow(item, iloc) for item, iloc in zip(items, locs)]
            else:
                decl.extra[key] = value
        return decl

    @staticmethod
    def _data_flow(body, loc) -> DataFlowDecl:
        if not isinstance(body, dict):
            raise loc.error("a data-flow declaration is a mapping (owners, sources, ...)")
        known = ("when", "owners", "sources", "non-owner-targets", "strip-manual-axes", "keep-divisible")
        for key in body:
            if key not in known:
                raise body.key_loc(key).error(f"data-flow: unknown key '{key}' (expected one of: {', '.join(known)})")
        decl = DataFlowDecl()
        when = body.get("when") or {}
        if not isinstance(when, dict):
            raise body.loc_of("when").error("'when' is a mapping of attribute name to value")
        decl.when = {str(k): v for k, v in when.items()}
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


registry = InterfaceRegistry()
registry.load(RULES_DIR / "interfaces.yaml")


# --------------------------------------------------------------------------- value shardings


def _slot_of(value: ir.Value):
    """(op, SlotDecl, index) of where `value`'s sharding lives, or None."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        op = operation(owner.owner)
        decl = registry.of(op.name).block_args
        if decl is None:
            # A non-owner target of a data-flow edge (a while's block argument)
            # keeps its sharding on the edge owner, the op's result.
            flow = registry.data_flow(op)
            if flow is not None and flow.result_owners and \
                    _region_index(op, owner) in flow.non_owner_target_regions:
                return _slot_of(op.results[ir.BlockArgument(value).arg_number])
            return None
        return op, decl, ir.BlockArgument(value).arg_number
    op = operation(owner)
    decl = registry.of(op.name).results or registry.default.results
    if decl is None:
        return None
    return op, decl, ir.OpResult(value).result_number


def sharding_of(value: ir.Value) -> TensorSharding | None:
    """The sharding of a value, wherever its op keeps it; None if it has none."""
    where = _slot_of(value)
    if where is None:
        return None
    op, decl, index = where
    attrs = op.attributes
    if decl.kind == "func-arg-attrs":
        if "arg_attrs" not in attrs:
            return None
        d = ir.DictAttr(ir.ArrayAttr(attrs["arg_attrs"])[index])
        return codec.tensor_sharding(d[decl.attr]) if decl.attr in d else None
    if decl.attr not in attrs:
        return None
    if decl.kind == "single":
        return codec.tensor_sharding(attrs[decl.attr])
    return codec.sharding_per_value(attrs[decl.attr])[index]


def set_sharding(value: ir.Value, sharding: TensorSharding) -> bool:
    """Set a value's sharding; returns whether anything changed.

    For per-value slots whose op has no attribute yet, the other results get a
    fully open replicated sharding on the same mesh (what Shardy does).
    """
    where = _slot_of(value)
    if where is None:
        raise ValueError(f"'{_owner_name(value)}' has no sharding slot for this value")
    op, decl, index = where
    old = sharding_of(value)
    if old == sharding:
        return False
    if decl.kind == "func-arg-attrs":
        set_func_sharding(op, "arg_attrs", index, sharding)
    elif decl.kind == "single":
        op.attributes[decl.attr] = codec.tensor_sharding_attr(sharding)
    else:
        values = op.results if isinstance(value.owner, ir.Block) is False else value.owner.arguments
        if decl.attr in op.attributes:
            current = list(codec.sharding_per_value(op.attributes[decl.attr]))
        else:
            current = [TensorSharding.replicated_like(sharding.mesh_name, _rank(v), is_closed=False,
                                                      inline_mesh=sharding.inline_mesh) for v in values]
        current[index] = sharding
        op.attributes[decl.attr] = codec.sharding_per_value_attr(current)
    return True


def _rank(value: ir.Value) -> int:
    t = value.type
    return t.rank if isinstance(t, ir.ShapedType) and t.has_rank else 0


def _owner_name(value: ir.Value) -> str:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return operation(owner.owner).name
    return operation(owner).name


# --------------------------------------------------------------------------- user interface files


_BUILTIN_OPS = {name: decl for name, decl in registry.ops.items()}
_BUILTIN_DEFAULT = registry.default
_BUILTIN_SOURCES = list(registry.sources)


def use_user_interface_files(paths) -> None:
    """Reset the registry to the built-in declarations, then layer `paths` on top.

    Called once per CLI run with the `interfaces.yaml` files of the user's
    `--rules` directories, so declarations never leak between runs.
    """
    registry.ops = dict(_BUILTIN_OPS)
    registry.default = _BUILTIN_DEFAULT
    registry.sources = list(_BUILTIN_SOURCES)
    for path in paths:
        registry.load(Path(path))


# --------------------------------------------------------------------------- data-flow edges

DATA_FLOW_EDGE = "sdy.data_flow_edge"


def data_flow_result_owners(op) -> list:
    """The results of `op` that own data-flow edges (all of them, or none)."""
    op = operation(op)
    decl = registry.data_flow(op)
    return list(op.results) if decl is not None and decl.result_owners else []


def data_flow_block_arg_owners(op) -> list:
    """The block arguments of `op`'s (single-block) body that own data-flow edges."""
    op = operation(op)
    decl = registry.data_flow(op)
    if decl is None or not decl.block_arg_owners or not len(op.regions):
        return []
    return list(op.regions[0].blocks[0].arguments)


def _owner_decl(value: ir.Value):
    """(op, DataFlowDecl, is_block_arg, index) of the op a value belongs to."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        op = operation(owner.owner)
        return op, registry.data_flow(op), True, ir.BlockArgument(value).arg_number
    op = operation(owner)
    return op, registry.data_flow(op), False, ir.OpResult(value).result_number


def _manual_axes(op, attr_name: str) -> tuple[str, ...]:
    return codec.manual_axes(op.attributes[attr_name]).axes


def erase_manual_axes(sharding: TensorSharding, manual_axes) -> TensorSharding:
    """The sharding with the manual axes dropped (dims, replicated, unreduced)."""
    manual = set(manual_axes)
    return sharding.map_axes(lambda axes: tuple(a for a in axes if a.name not in manual))


def add_free_axes(outer: TensorSharding, free: TensorSharding, manual_axes) -> TensorSharding:
    """`outer`'s manual axes followed by `free`'s axes in each dim; open/closed and
    priority as in `free`; replicated/unreduced axes of `outer`."""
    from dataclasses import replace
    manual = set(manual_axes)
    dims = tuple(replace(new_dim, axes=tuple(a for a in old_dim.axes if a.name in manual) + new_dim.axes)
                 for old_dim, new_dim in zip(outer.dims, free.dims))
    return replace(outer, mesh_name=free.mesh_name, inline_mesh=free.inline_mesh, dims=dims)


def edge_owner_sharding(owner: ir.Value) -> TensorSharding | None:
    """The sharding an edge owner keeps on its op (manual axes stripped where declared)."""
    op, decl, is_block_arg, _ = _owner_decl(owner)
    sharding = sharding_of(owner)
    if sharding is not None and is_block_arg and decl is not None and decl.strip_manual_axes:
        sharding = erase_manual_axes(sharding, _manual_axes(op, decl.strip_manual_axes))
    return sharding


def set_edge_owner_shardings(op, owners: list, shardings: list) -> bool:
    """Set the shardings of all block-argument owners or all result owners of `op`."""
    op = operation(op)
    if not owners or not shardings:
        return False
    decl = registry.data_flow(op)
    is_block_arg = isinstance(owners[0].owner, ir.Block)
    slot = registry.of(op.name).block_args if is_block_arg else (registry.of(op.name).results
                                                                 or registry.default.results)
    if is_block_arg and decl is not None and decl.strip_manual_axes:
        manual = _manual_axes(op, decl.strip_manual_axes)
        shardings = [add_free_axes(sharding_of(v), s, manual) for v, s in zip(owners, shardings)]
    if slot.kind == "single":
        attr = codec.tensor_sharding_attr(shardings[0])
    else:
        attr = codec.sharding_per_value_attr(shardings)
    if slot.attr in op.attributes and op.attributes[slot.attr] == attr:
        return False
    op.attributes[slot.attr] = attr
    return True


def edge_owner_of_target(target: ir.Value) -> ir.Value | None:
    """The owner of the data-flow edge that `target` belongs to, if any."""
    op, decl, is_block_arg, index = _owner_decl(target)
    if decl is None:
        return None
    if not is_block_arg:
        return target if decl.result_owners else None
    if decl.block_arg_owners:
        return target
    region = _region_index(op, target.owner)
    if region in decl.non_owner_target_regions:
        return op.results[index]
    return None


def _region_index(op, block) -> int | None:
    for i, region in enumerate(op.regions):
        for b in region.blocks:
            if b == block:
                return i
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
