"""The op interfaces as a registry filled from `rules/interfaces.yaml`.

Answers: where does a value's sharding live (so `sharding_of(value)` and
`set_sharding(value, s)` work for any op), which ops are collectives and with
which properties. Data-flow edge declarations are added by the data-flow
passes' work; the table below is keyed by op name, never by Python branches.
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
class OpInterfaces:
    results: SlotDecl | None = None
    block_args: SlotDecl | None = None
    collective: dict | None = None
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
        for name, body in (doc.get("ops") or {}).items():
            self.ops[name] = self._decl(body, doc["ops"].loc_of(name))
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
                decl.collective = dict(value or {})
            else:
                decl.extra[key] = value
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
            return None
        return op, decl, ir.BlockArgument(value).arg_number
    op = operation(owner)
    decl = registry.of(op.name).results
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
    return ir.ShapedType(t).rank if ir.ShapedType.isinstance(t) and ir.ShapedType(t).has_rank else 0


def _owner_name(value: ir.Value) -> str:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return operation(owner.owner).name
    return operation(owner).name
