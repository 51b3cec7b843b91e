"""The algorithms of sdy-insert-explicit-reshards (Shardy's
explicit_reshards_util.cc): which axes each factor of an op ends up sharded
on (`find_common_axes`: the existing ones when compatible, the preferred
tensor's for a two-tensor op, otherwise the greedy candidate loop, then
need-replication factors hand their axes to batching factors), the projection
helpers it works with, and the pass's tunable `Policy` (read from its rule
file). The pass driver is insert_explicit_reshards.py, the placement of the
reshards and all-reduces reshard_placement.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable, Sequence

from jaxlib.mlir import ir

from . import interfaces
from .op_predicates import OpView, Predicate
from .op_sharding_rule import (FACTOR_KINDS, NEED_REPLICATION, PASS_THROUGH, PERMUTATION, REDUCTION,
                               OpShardingRule)
from .sharding_projection import ShardingProjection, TensorFactorShardings
from .sharding import (STRICT_PREFIX, AxisRef, Mesh, TensorSharding, add_or_merge, axes_size,
                       axis_list_prefix_status, greatest_common_prefix, truncate_without_overlap)
from .vocabulary import Vocabulary

RESHARD = "sdy.reshard"
ALL_REDUCE = "sdy.all_reduce"
REPLICATED_TO_UNREDUCED = "sdy.replicated_to_unreduced"
SHARDED_TO_UNREDUCED = "sdy.sharded_to_unreduced"

AxesPerFactor = list  # factor index -> list[AxisRef]


class ReshardError(Exception):
    """An invariant the reference checks (and aborts on); located at `op`."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.op = op


# --------------------------------------------------------------------------- policy


# The vocabularies the pass's `params:` name (their types in its rule file's
# `param-types:` refer to them): the fields the greedy loop ranks candidates
# by, those a two-tensor op's preferred tensor is chosen by, what follows an
# op, and the factor types of the precedence table.
CANDIDATE_FIELDS: Vocabulary[Callable] = Vocabulary("candidate ranking field", name="candidate-ranking-field")
UNARY_FIELDS: Vocabulary[Callable] = Vocabulary("unary preference field", name="unary-preference-field")
AFTER_OP_GROUPS: Vocabulary[str] = Vocabulary("after-op group", name="after-op-group")
AFTER_OP_GROUPS.register("all-reduces", "the all-reduces of the op's reduction factors")
AFTER_OP_GROUPS.register("result-reshards", "the reshards restoring its results' old shardings")
FACTOR_TYPES: Vocabulary[str] = Vocabulary("factor type", name="factor-type")
for _kind in FACTOR_KINDS:
    FACTOR_TYPES.register(_kind, _kind)
CONTRACTING_CHOICES = ("all-reduce", "all-gather")  # the reference's first


@dataclass(frozen=True)
class ContractingChoice:
    """For the ops named `ops` on which `when` holds (None: all of them), how
    a reduction factor (a dot's contracting dimension) sharded on the operands
    is resolved: `all-reduce` the result (the reference), or `all-gather` the
    operands (the factor is resolved as a need-replication factor)."""
    ops: frozenset
    when: Predicate | None
    choice: str


def gathering_reductions(rule: OpShardingRule) -> OpShardingRule:
    """`rule` with its reduction factors needing replication instead (what
    `need_replication: [contracting]` in op_sharding_rules.yaml makes of a dot)."""
    if not rule.reduction_factors:
        return rule
    return replace(rule, reduction_factors=(), need_replication_factors=tuple(
        sorted((*rule.need_replication_factors, *rule.reduction_factors))))


@dataclass(frozen=True)
class Policy:
    """The tunable decisions of the pass (the `params:` of its rule file). What
    an op is (a call, a data-flow op, a propagation barrier, a terminator, a
    dot, a reshape) is the op registry's (rules/interfaces.yaml)."""

    full_version_ops: frozenset = frozenset()
    full_version_if_operand_differs: frozenset = frozenset()
    ranking: tuple = ()  # CANDIDATE_FIELDS names, compared in order
    precedence: tuple = ((PASS_THROUGH, 3), (REDUCTION, 2), (PERMUTATION, 1), (NEED_REPLICATION, 0))
    unary_preference: tuple = ()  # UNARY_FIELDS names, compared in order
    after_op: tuple = ()  # AFTER_OP_GROUPS names, nearest first
    contracting: tuple = ()  # ContractingChoice, the first that matches an op wins

    def precedence_of(self, kind: str) -> int:
        return dict(self.precedence)[kind]

    @cached_property
    def gathering_ops(self) -> frozenset:
        """The op names whose reductions some entry all-gathers."""
        return frozenset(name for c in self.contracting if c.choice == "all-gather" for name in c.ops)

    def gathers_reductions(self, op: ir.Operation, table) -> bool:
        """Whether `op`'s sharded reduction factors are all-gathered on its
        operands rather than all-reduced on its result (the default)."""
        name = op.name
        for entry in self.contracting:
            if name in entry.ops and (entry.when is None or entry.when(OpView(name, op, interfaces=table), -1)):
                return entry.choice == "all-gather"
        return False


# --------------------------------------------------------------------------- axis helpers


def _axes_list_key(axes: Sequence[AxisRef]) -> tuple:
    """AxisListRef's `<`: fewer axes first, then axis by axis."""
    return (len(axes), tuple(a.order_key() for a in axes))


def _overlaps_any(axes: Sequence[AxisRef], others: Sequence[AxisRef], mesh: Mesh) -> bool:
    return any(a.overlaps(b, mesh) for a in axes for b in others)


def _is_strict_prefix(first: Sequence[AxisRef], second: Sequence[AxisRef], mesh: Mesh) -> bool:
    return axis_list_prefix_status(first, second, mesh) == STRICT_PREFIX


def is_fully_replicated(sharding: TensorSharding | None) -> bool:
    return sharding is None or sharding.is_fully_replicated


def is_equivalent(a: TensorSharding | None, b: TensorSharding | None) -> bool:
    """jaxlib's isEquivalent: both replicated, or same mesh and same dimension axes."""
    if a is b:  # (one attribute's sharding: decoded once)
        return True
    if is_fully_replicated(a):
        return is_fully_replicated(b)
    if b is None:
        return False
    return a.mesh_text() == b.mesh_text() and len(a.dims) == len(b.dims) and \
        all(x.axes == y.axes for x, y in zip(a.dims, b.dims))


def value_rank(value: ir.Value) -> int:
    t = value.type
    return t.rank if isinstance(t, ir.ShapedType) and t.has_rank else 0


def num_elements(value: ir.Value) -> int:
    t = value.type
    if isinstance(t, ir.ShapedType) and t.has_static_shape:
        return math.prod(t.shape)
    return 0


def replicated_sharding(mesh_name: str | None, rank: int, inline: Mesh | None = None) -> TensorSharding:
    return TensorSharding.replicated_like(mesh_name, rank, is_closed=True, inline_mesh=inline)


# --------------------------------------------------------------------------- projection helpers


def has_overflow(tensor: TensorFactorShardings) -> bool:
    return any(fs.overflow for fs in tensor.factors.values())


def tensor_sharding_size(tensor: TensorFactorShardings, mesh: Mesh) -> int:
    return math.prod(a.size(mesh) for fs in tensor.factors.values() for a in (*fs.axes, *fs.overflow))


def tensor_sizes(op) -> list[int]:
    return [num_elements(v) for v in (*op.operands, *op.results)]


def update_sharding(projection: ShardingProjection, factor: int, axes: Sequence[AxisRef]) -> tuple[set, set]:
    """Set every tensor's axes of `factor` to `axes`, clearing overflow; which tensors changed."""
    def update(tensors):
        changed = set()
        for i, t in enumerate(tensors):
            fs = t.factors.get(factor)
            if fs is None or (fs.axes == list(axes) and not fs.overflow):
                continue
            fs.axes, fs.overflow = list(axes), []
            changed.add(i)
        return changed
    return update(projection.operands), update(projection.results)


def compatible_factor_sharding(projection: ShardingProjection, factor: int) -> list | None:
    """The factor's axes if every tensor that has it agrees, else None ([] if none has it)."""
    found = None
    for t in projection.tensors():
        fs = t.factors.get(factor)
        if fs is None:
            continue
        if found is None:
            found = fs.axes
        elif found != fs.axes:
            return None
    return list(found) if found is not None else []


def greatest_common_prefix_axes(projection: ShardingProjection, num_factors: int, mesh: Mesh) -> AxesPerFactor:
    out: AxesPerFactor = [[] for _ in range(num_factors)]
    seen = [False] * num_factors
    for t in projection.tensors():
        for f, fs in t.factors.items():
            if not seen[f]:
                out[f], seen[f] = list(fs.axes), True
            else:
                out[f] = greatest_common_prefix(out[f], fs.axes, mesh)
    return out


def redistribute(tensor: TensorFactorShardings, mapping, factor_sizes, mesh: Mesh,
                  all_axes: Sequence[AxisRef]) -> None:
    """Offer each (sub-)axis to the factors from the first (SP:494-566)."""
    factors = [f for dim in mapping for f in dim if f in tensor.factors]
    for f in factors:
        tensor.factors[f].axes, tensor.factors[f].overflow = [], []
    if not factors:
        return
    remaining = [factor_sizes[f] for f in factors]
    index = 0

    def info(i):
        if i >= len(all_axes):
            return None
        a = all_axes[i]
        return [a.size(mesh), a.pre_size if a.is_sub_axis else None]

    current = info(index)
    while current is not None:
        used = False
        for i, f in enumerate(factors):
            if remaining[i] <= 1:
                continue
            size = current[0]
            gcd = math.gcd(remaining[i], size)
            if gcd == 1 and size != 1:
                continue
            used = True
            name = all_axes[index].name
            fs = tensor.factors[f]
            if size > gcd:
                pre = current[1] if current[1] is not None else 1
                add_or_merge(fs.axes, AxisRef(name, pre, gcd), mesh)
                current[1] = pre * gcd
                current[0] = size // gcd
                remaining[i] //= gcd
            else:
                axis = AxisRef(name) if current[1] is None else AxisRef(name, current[1], current[0])
                add_or_merge(fs.axes, axis, mesh)
                remaining[i] //= size
                index += 1
                current = info(index)
                break
        if not used:
            overflow = tensor.factors[factors[-1]].overflow
            while current is not None:
                name = all_axes[index].name
                add_or_merge(overflow, AxisRef(name) if current[1] is None
                             else AxisRef(name, current[1], current[0]), mesh)
                index += 1
                current = info(index)
            break


# --------------------------------------------------------------------------- findCommonAxes (ERU:702-728)


def find_common_axes(projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int],
                     mesh: Mesh, policy: Policy) -> AxesPerFactor:
    compatible = _compatible_axes(projection, rule, mesh)
    if compatible is not None:
        return compatible
    non_scalar = _non_scalar_tensors(rule)
    if len(non_scalar) == 2 and not rule.need_replication_factors and \
            not any(len(dim) > 1 for t in (*rule.operand_mappings, *rule.result_mappings) for dim in t):
        return _unary(projection, rule, tensor_sizes, mesh, policy, non_scalar)
    common = _heuristic(projection, rule, tensor_sizes, mesh, policy)
    if rule.need_replication_factors:
        _distribute_need_replication_axes(rule, mesh, common)
    return common


def _tensor_mappings(rule: OpShardingRule):
    return (*rule.operand_mappings, *rule.result_mappings)


def _non_scalar_tensors(rule: OpShardingRule) -> list[int]:
    return [i for i, m in enumerate(_tensor_mappings(rule)) if m]


def _compatible_axes(projection: ShardingProjection, rule: OpShardingRule, mesh: Mesh) -> AxesPerFactor | None:
    common: AxesPerFactor = [[] for _ in range(rule.num_factors)]
    seen: list[AxisRef] = []
    for f in range(rule.num_factors):
        axes = compatible_factor_sharding(projection, f)
        if axes is None:
            return None
        if rule.kind_of(f) == NEED_REPLICATION:
            if axes:
                return None
            continue
        if _overlaps_any(axes, seen, mesh):
            return None
        common[f] = axes
        seen.extend(axes)
    return common


@UNARY_FIELDS.register("no-sharded-permutation-factor")
def _no_sharded_permutation_factor(rule: OpShardingRule, tensor: TensorFactorShardings, size: int,
                                   mesh: Mesh) -> bool:
    return not any(rule.kind_of(f) == PERMUTATION and fs.axes for f, fs in tensor.factors.items())


UNARY_FIELDS.register("tensor-size", lambda rule, tensor, size, mesh: size)
UNARY_FIELDS.register("sharding-size", lambda rule, tensor, size, mesh: tensor_sharding_size(tensor, mesh))


def _unary(projection, rule: OpShardingRule, tensor_sizes, mesh: Mesh, policy: Policy,
           non_scalar: list[int]) -> AxesPerFactor:
    tensors = list(projection.tensors())

    fields = [UNARY_FIELDS[k] for k in policy.unary_preference]

    def preference(i):
        return tuple(field(rule, tensors[i], tensor_sizes[i], mesh) for field in fields)

    lhs, rhs = non_scalar
    preferred, other = (lhs, rhs) if preference(lhs) >= preference(rhs) else (rhs, lhs)
    common: AxesPerFactor = [[] for _ in range(rule.num_factors)]
    taken: list[AxisRef] = []
    for f, fs in tensors[preferred].factors.items():
        common[f] = list(fs.axes)
        taken.extend(fs.axes)
    for f, fs in tensors[other].factors.items():
        if f in tensors[preferred].factors:
            continue
        axes = list(fs.axes)
        cut = truncate_without_overlap(axes, taken, mesh)
        common[f] = list(cut) if cut is not None else axes
    return common


@dataclass
class _Candidate:
    factor: int
    axes: tuple
    source_size: int
    sharding_size: int
    precedence: int


CANDIDATE_FIELDS.register("source-tensor-size", lambda c: c.source_size)
CANDIDATE_FIELDS.register("factor-type-precedence", lambda c: c.precedence)
CANDIDATE_FIELDS.register("sharding-size", lambda c: c.sharding_size)
CANDIDATE_FIELDS.register("factor-index", lambda c: c.factor)
CANDIDATE_FIELDS.register("axes", lambda c: _axes_list_key(c.axes))


def _heuristic(projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int],
               mesh: Mesh, policy: Policy) -> AxesPerFactor:
    """The greedy candidate loop (ERU:423-570)."""
    tensors = list(projection.tensors())
    pairs: dict[tuple, None] = {}
    for t in tensors:
        for f, fs in t.factors.items():
            axes = tuple(fs.axes)
            while axes:
                pairs[(f, axes)] = None
                axes = axes[:-1]
    candidates = [_Candidate(f, axes, 0, axes_size(axes, mesh), policy.precedence_of(rule.kind_of(f)))
                  for f, axes in pairs]
    for size, t in zip(tensor_sizes, tensors):
        for f, fs in t.factors.items():
            source = tuple(fs.axes)
            for c in candidates:
                if c.factor == f and (c.axes == source or _is_strict_prefix(c.axes, source, mesh)):
                    c.source_size += size
    depends: dict[int, set] = {}
    for mapping in _tensor_mappings(rule):
        for dim in mapping:
            for k in range(1, len(dim)):
                depends.setdefault(dim[k], set()).add(dim[k - 1])

    order = [CANDIDATE_FIELDS[k] for k in policy.ranking]

    def rank(c: _Candidate):
        return tuple(get(c) for get in order)

    assigned: list[tuple] = [() for _ in range(rule.num_factors)]
    while candidates:
        valid = [c for c in candidates if not depends.get(c.factor)]
        if not valid:
            break
        best = max(valid, key=rank)
        assigned[best.factor] = best.axes
        if axes_size(best.axes, mesh) == rule.factor_sizes[best.factor]:
            for deps in depends.values():
                deps.discard(best.factor)
        kept = []
        for c in candidates:
            if c.factor == best.factor:
                if _is_strict_prefix(best.axes, c.axes, mesh):
                    c.sharding_size = axes_size(c.axes, mesh) // axes_size(best.axes, mesh)
                    kept.append(c)
                continue
            cut = truncate_without_overlap(c.axes, best.axes, mesh)
            if cut is not None:
                c.axes = cut
                if c.axes == assigned[c.factor]:
                    continue
                c.sharding_size = axes_size(c.axes, mesh) // axes_size(assigned[c.factor], mesh)
                kept.append(c)
                continue
            # The reference resets an unrelated candidate's size to its full size.
            c.sharding_size = axes_size(c.axes, mesh)
            kept.append(c)
        candidates = kept
    return [list(a) for a in assigned]


def _distribute_need_replication_axes(rule: OpShardingRule, mesh: Mesh, common: AxesPerFactor) -> None:
    non_scalar = [m for m in _tensor_mappings(rule) if m]

    def in_all(f):
        return all(any(f in dim for dim in m) for m in non_scalar)

    batching = [f for f in range(rule.num_factors) if rule.kind_of(f) == PASS_THROUGH and in_all(f)]
    for f in rule.need_replication_factors:
        axes = list(common[f])
        common[f] = []
        if not in_all(f) or not axes:
            continue
        for b in batching:
            size = rule.factor_sizes[b]
            if size == 0:
                continue
            sharded = axes_size(common[b], mesh)
            if size % sharded:
                continue
            capacity = size // sharded
            while axes:
                axis_size = axes[0].size(mesh)
                if capacity % axis_size:
                    break
                add_or_merge(common[b], axes[0], mesh)
                capacity //= axis_size
                axes.pop(0)
            if not axes:
                break


