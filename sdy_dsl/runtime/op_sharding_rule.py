"""OpShardingRule: how an op's operand and result dimensions map to factors.

Shardy propagates shardings through an op factor by factor. A rule lists the
op's factors (each with a size), says which factors make up each dimension of
each operand and result (several factors in one dimension form a compound
factor, major-most first), and gives some factors a kind:

- reduction: sharding it on the operands needs an all-reduce of the results;
- need_replication: the partitioner replicates a dimension sharded along it;
- permutation: sharding it needs a collective-permute (halo exchange, shifts);
- blocked_propagation: propagation never crosses the op along it.

`RuleBuilder` builds rules incrementally, the way the reference's builder does
(same factor order, same size-1 factors for dimensions left without one), so
the attributes we attach print exactly like the reference's.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

# Factor kinds. `PASS_THROUGH` is the default: no communication is implied.
PASS_THROUGH = "pass_through"
REDUCTION = "reduction"
NEED_REPLICATION = "need_replication"
PERMUTATION = "permutation"
FACTOR_KINDS = (PASS_THROUGH, REDUCTION, NEED_REPLICATION, PERMUTATION)

# A dimension index meaning "this tensor does not take part in the factor".
NULL_DIM = -1

SHARDING_RULE_ATTR = "sdy.sharding_rule"

TensorMapping = tuple[tuple[int, ...], ...]  # per dimension, its factor indices


def factor_symbol(index: int) -> str:
    """The name Shardy prints for factor `index`: i..z, then z_1, z_2, ..."""
    return chr(ord("i") + index) if index < 18 else f"z_{index - 17}"


@dataclass(frozen=True, slots=True)
class OpShardingRule:
    factor_sizes: tuple[int, ...]
    operand_mappings: tuple[TensorMapping, ...]
    result_mappings: tuple[TensorMapping, ...]
    reduction_factors: tuple[int, ...] = ()
    need_replication_factors: tuple[int, ...] = ()
    permutation_factors: tuple[int, ...] = ()
    blocked_propagation_factors: tuple[int, ...] = ()
    is_custom: bool = False
    # The role a builder gave each factor ("contracting", ...; None: none),
    # which a declaration may give a kind by name. Not part of the rule itself.
    factor_roles: tuple[str | None, ...] = field(default=(), compare=False, hash=False)

    def with_role_kinds(self, kinds: dict[str, str], blocked: frozenset[str] | set[str]) -> "OpShardingRule":
        """This rule with the factors of each role in `kinds` of that kind, and
        the factors of each role in `blocked` blocked."""
        if not kinds and not blocked:
            return self
        roles = self.factor_roles
        kind_lists = {REDUCTION: [], NEED_REPLICATION: [], PERMUTATION: []}
        blocked_list = []
        for factor in range(self.num_factors):
            role = roles[factor] if factor < len(roles) else None
            kind = kinds.get(role, self.kind_of(factor)) if role is not None else self.kind_of(factor)
            if kind != PASS_THROUGH:
                kind_lists[kind].append(factor)
            if self.is_blocked(factor) or (role is not None and role in blocked):
                blocked_list.append(factor)
        return replace(self, reduction_factors=tuple(kind_lists[REDUCTION]),
                       need_replication_factors=tuple(kind_lists[NEED_REPLICATION]),
                       permutation_factors=tuple(kind_lists[PERMUTATION]),
                       blocked_propagation_factors=tuple(blocked_list))

    @property
    def num_factors(self) -> int:
        return len(self.factor_sizes)

    def kind_of(self, factor: int) -> str:
        if factor in self.reduction_factors:
            return REDUCTION
        if factor in self.need_replication_factors:
            return NEED_REPLICATION
        if factor in self.permutation_factors:
            return PERMUTATION
        return PASS_THROUGH

    def is_blocked(self, factor: int) -> bool:
        return factor in self.blocked_propagation_factors

    # ------------------------------------------------------------ MLIR attribute

    def to_attr(self, context: ir.Context | None = None) -> sdy.OpShardingRuleAttr:
        """The `#sdy.op_sharding_rule<...>` attribute (in `context`, or the current one)."""
        dim_mapping = sdy.DimMappingAttr.get
        tensor_mapping = sdy.TensorMappingAttr.get

        def tensors(mappings):
            return [tensor_mapping([dim_mapping(list(dim), context=context) for dim in tensor],
                                   context=context)
                    for tensor in mappings]

        return sdy.OpShardingRuleAttr.get(
            list(self.factor_sizes), tensors(self.operand_mappings),
            tensors(self.result_mappings),
            reduction_factors=list(self.reduction_factors),
            need_replication_factors=list(self.need_replication_factors),
            permutation_factors=list(self.permutation_factors),
            blocked_propagation_factors=list(self.blocked_propagation_factors),
            is_custom=self.is_custom, context=context)

    @staticmethod
    def from_attr(attr: ir.Attribute) -> "OpShardingRule":
        attr = sdy.OpShardingRuleAttr(attr)

        def tensors(mappings):
            return tuple(
                tuple(tuple(sdy.DimMappingAttr(dim).factor_indices)
                      for dim in sdy.TensorMappingAttr(tensor).dim_mappings)
                for tensor in mappings)

        return OpShardingRule(
            tuple(attr.factor_sizes), tensors(attr.operand_mappings),
            tensors(attr.result_mappings), tuple(attr.reduction_factors),
            tuple(attr.need_replication_factors), tuple(attr.permutation_factors),
            tuple(attr.blocked_propagation_factors), bool(attr.is_custom))

    # ------------------------------------------------------------ text

    def __str__(self) -> str:
        """The attribute's text, as MLIR prints it (without needing a context)."""

        def tensor_text(tensor):
            return "[" + ", ".join("".join(factor_symbol(f) for f in dim) for dim in tensor) + "]"

        def tensors_text(mappings):
            return "(" + ", ".join(tensor_text(t) for t in mappings) + ")"

        text = f"{tensors_text(self.operand_mappings)}->{tensors_text(self.result_mappings)}"
        if self.factor_sizes:
            text += " {" + ", ".join(f"{factor_symbol(i)}={size}"
                                     for i, size in enumerate(self.factor_sizes)) + "}"
        for name, factors in (("reduction", self.reduction_factors),
                              ("need_replication", self.need_replication_factors),
                              ("permutation", self.permutation_factors),
                              ("blocked_propagation", self.blocked_propagation_factors)):
            if factors:
                text += f" {name}={{" + ", ".join(factor_symbol(f) for f in factors) + "}"
        if self.is_custom:
            text += ", custom"
        return f"#sdy.op_sharding_rule<{text}>"


# ---------------------------------------------------------------- building rules


def tensor_shapes(values: Iterable[ir.Value]) -> list[tuple[int, ...]]:
    """The static shapes of ranked tensor values (non-tensors, e.g. tokens, count as rank 0)."""
    shapes = []
    for value in values:
        value_type = value.type
        if isinstance(value_type, ir.RankedTensorType):
            shapes.append(tuple(value_type.shape))
        else:
            shapes.append(())
    return shapes


class RuleBuilder:
    """Builds an OpShardingRule one factor at a time.

    Dimensions are given per operand and per result; `NULL_DIM` leaves a tensor
    out of the factor. A single int instead of a per-tensor sequence means
    "this dimension in every operand (or result)". Every dimension left without
    a factor gets its own size-1 factor when the rule is built (operands first,
    then results, in dimension order), as the reference does.
    """

    __slots__ = ("operand_shapes", "result_shapes", "factor_sizes", "operand_mappings",
                 "result_mappings", "kinds", "blocked", "roles")

    def __init__(self, operand_shapes: Sequence[Sequence[int]],
                 result_shapes: Sequence[Sequence[int]]):
        self.operand_shapes = [tuple(s) for s in operand_shapes]
        self.result_shapes = [tuple(s) for s in result_shapes]
        self.factor_sizes: list[int] = []
        self.operand_mappings = [[[] for _ in shape] for shape in self.operand_shapes]
        self.result_mappings = [[[] for _ in shape] for shape in self.result_shapes]
        self.kinds: dict[str, list[int]] = {REDUCTION: [], NEED_REPLICATION: [], PERMUTATION: []}
        self.blocked: list[int] = []
        self.roles: dict[int, str] = {}  # factor -> its role (see factor_roles)

    @classmethod
    def for_op(cls, op) -> "RuleBuilder":
        op = op.operation
        return cls(tensor_shapes(op.operands), tensor_shapes(op.results))

    # ------------------------------------------------------------ factors

    def _new_factor(self, size: int, kind: str, blocked: bool, role: str | None = None) -> int:
        index = len(self.factor_sizes)
        if role is not None:
            self.roles[index] = role
        self.factor_sizes.append(size)
        if kind != PASS_THROUGH:
            try:
                self.kinds[kind].append(index)
            except KeyError:
                raise ValueError(f"unknown factor kind '{kind}'") from None
        if blocked:
            self.blocked.append(index)
        return index

    @staticmethod
    def _map(mappings, dims, factor: int) -> None:
        if isinstance(dims, int):
            if dims == NULL_DIM:
                return
            for tensor in mappings:
                if tensor:  # scalars take no part
                    tensor[dims].append(factor)
            return
        if len(dims) != len(mappings):
            raise ValueError(f"expected {len(mappings)} dimension(s), got {len(dims)}")
        for tensor, dim in zip(mappings, dims):
            if dim != NULL_DIM:
                tensor[dim].append(factor)

    def add_factor(self, operand_dims: int | Sequence[int], result_dims: int | Sequence[int],
                   size: int, kind: str = PASS_THROUGH, blocked: bool = False,
                   role: str | None = None) -> "RuleBuilder":
        """A new factor of `size`, appended to the given dimensions (major to minor order);
        `role` names it for a declaration's kinds by role (a builder's `factor_roles`)."""
        index = self._new_factor(size, kind, blocked, role)
        self._map(self.operand_mappings, operand_dims, index)
        self._map(self.result_mappings, result_dims, index)
        return self

    def add_factor_everywhere(self, dim: int, size: int, kind: str = PASS_THROUGH,
                              blocked: bool = False, role: str | None = None) -> "RuleBuilder":
        """A new factor for dimension `dim` of every operand and result that is not a scalar."""
        index = self._new_factor(size, kind, blocked, role)
        for tensor in self.operand_mappings:
            if tensor:
                tensor[dim].append(index)
        for tensor in self.result_mappings:
            if tensor:
                tensor[dim].append(index)
        return self

    def add_pointwise(self, shape: Sequence[int],
                      kind_of: Callable[[int], str] | None = None,
                      blocked: bool | Callable[[int], bool] = False) -> "RuleBuilder":
        """One factor per dimension of `shape`, shared by all non-scalar tensors."""
        for dim, size in enumerate(shape):
            self.add_factor_everywhere(dim, size, kind_of(dim) if kind_of else PASS_THROUGH,
                                       blocked(dim) if callable(blocked) else blocked)
        return self

    def add_pointwise_if(self, shape: Sequence[int], predicate: Callable[[int], bool],
                         kind_of: Callable[[int], str] | None = None) -> "RuleBuilder":
        """Like add_pointwise, for the dimensions where `predicate` holds."""
        for dim, size in enumerate(shape):
            if predicate(dim):
                self.add_factor_everywhere(dim, size, kind_of(dim) if kind_of else PASS_THROUGH)
        return self

    def add_pointwise_with_mismatch_kind(self, in_shape: Sequence[int], out_shape: Sequence[int],
                                         mismatch_kind: str = NEED_REPLICATION,
                                         mismatch_blocked: bool = False) -> "RuleBuilder":
        """One factor per dimension, sized by `in_shape`; dimensions whose size differs
        between `in_shape` and `out_shape` get `mismatch_kind` (and are blocked if asked)."""
        if len(in_shape) != len(out_shape):
            raise ValueError("shapes of different ranks")
        for dim, (in_size, out_size) in enumerate(zip(in_shape, out_shape)):
            if in_size == out_size:
                self.add_factor_everywhere(dim, in_size)
            else:
                self.add_factor_everywhere(dim, in_size, mismatch_kind, mismatch_blocked)
        return self

    # ------------------------------------------------------------ result

    def build(self, is_custom: bool = False) -> OpShardingRule:
        sizes = list(self.factor_sizes)

        def freeze(mappings):
            frozen = []
            for tensor in mappings:
                dims = []
                for dim in tensor:
                    if dim:
                        dims.append(tuple(dim))
                    else:
                        dims.append((len(sizes),))
                        sizes.append(1)
                frozen.append(tuple(dims))
            return tuple(frozen)

        operands = freeze(self.operand_mappings)
        results = freeze(self.result_mappings)
        return OpShardingRule(
            tuple(sizes), operands, results, tuple(self.kinds[REDUCTION]),
            tuple(self.kinds[NEED_REPLICATION]), tuple(self.kinds[PERMUTATION]),
            tuple(self.blocked), is_custom,
            tuple(self.roles.get(f) for f in range(len(self.factor_sizes))) if self.roles else ())

    @staticmethod
    def pointwise(operand_shapes: Sequence[Sequence[int]],
                  result_shapes: Sequence[Sequence[int]]) -> OpShardingRule:
        """The rule of an elementwise op: dimension d of every tensor is factor d,
        sized like dimension d of the first result."""
        sizes = tuple(result_shapes[0]) if result_shapes else ()
        operands = tuple(tuple((d,) for d in range(len(s))) for s in operand_shapes)
        results = tuple(tuple((d,) for d in range(len(s))) for s in result_shapes)
        return OpShardingRule(sizes, operands, results)


FACTOR_ROLES_MARK = "__sdy_factor_roles__"


def factor_roles(*names: str) -> Callable:
    """Declares the roles a builder hook gives its factors (`add_factor(...,
    role=NAME)`): its declaration may then set a role's factors' kind
    (`reduction: [ROLE]`, `need_replication`, `permutation`, `pass_through`) or
    block them (`blocked_propagation: [ROLE]`)."""
    def mark(fn: Callable) -> Callable:
        setattr(fn, FACTOR_ROLES_MARK, tuple(names))
        return fn
    return mark


def roles_of(fn: Callable) -> tuple[str, ...]:
    return getattr(fn, FACTOR_ROLES_MARK, ())
