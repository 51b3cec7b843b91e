"""The mechanics of sdy-insert-explicit-reshards.

After propagation an op's operands and results may disagree on how a factor
of its sharding rule is sharded. This module makes them agree, op by op, by
inserting `sdy.reshard` ops (and `sdy.all_reduce` for reduction factors and
unreduced axes), the way Shardy's pass does (jaxlib 0.10.2):

- the sharding projection (runtime/propagation/projection.py) maps the op's
  tensor shardings onto its factors;
- `find_common_axes` picks one set of axes per factor: the existing ones when
  compatible, the preferred tensor's for a two-tensor op, otherwise the
  greedy candidate loop (`_heuristic`), then need-replication factors hand
  their axes to batching factors;
- the projection, updated with the common axes, is projected back, and each
  tensor that changed gets a reshard (operands before the op, results after
  it, restoring the original sharding for the other users).

What a user may tune (which ops always get the full resolution, the ranking
of candidates, the factor-type precedence, the placement after an op) is a
`Policy`, read from the pass's rule file. Where the reference checks an
invariant and aborts, `ReshardError` carries the op and the message.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from jaxlib.mlir import ir

from . import interfaces
from .op_sharding_rule import OpShardingRule, REDUCTION, NEED_REPLICATION, PERMUTATION, PASS_THROUGH
from .op_sharding_rule_registry import OpShardingRuleRegistry, sharding_rule_for
from .propagation.projection import (
    STRICT_PREFIX, NOT_A_PREFIX, ShardingProjection, TensorFactorShardings, add_axis_or_merge,
    axis_list_prefix_status, prefix_without_overlap_all)
from .sharding_store import ShardingStore, erase_manual_axes
from .sharding import AxisRef, Mesh, TensorSharding, axes_size, axis_set_difference, codec, sort_and_merge_axes
from .values import MeshTable, operation, sharding_slots, structure_key

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


RANKING_KEYS = ("source-tensor-size", "factor-type-precedence", "sharding-size", "factor-index", "axes")
UNARY_KEYS = ("no-sharded-permutation-factor", "tensor-size", "sharding-size")
AFTER_OP_GROUPS = ("all-reduces", "result-reshards")


@dataclass(frozen=True)
class Policy:
    """The tunable decisions of the pass (the `params:` of its rule file). What
    an op is (a call, a data-flow op, a propagation barrier, a terminator) is
    the op registry's (rules/interfaces.yaml)."""

    full_version_ops: frozenset = frozenset()
    full_version_if_operand_differs: frozenset = frozenset()
    dot_fix_ops: frozenset = frozenset()
    reshape_overflow_ops: frozenset = frozenset()
    ranking: tuple = RANKING_KEYS
    precedence: tuple = ((PASS_THROUGH, 3), (REDUCTION, 2), (PERMUTATION, 1), (NEED_REPLICATION, 0))
    unary_preference: tuple = UNARY_KEYS
    after_op: tuple = AFTER_OP_GROUPS

    def precedence_of(self, kind: str) -> int:
        return dict(self.precedence)[kind]


# --------------------------------------------------------------------------- axis helpers


def axis_order_key(axis: AxisRef) -> tuple:
    """AxisRefAttr's `<`: by name; for one name `"x":(1)k` < `"x"` < `"x":(p)k` (p > 1)."""
    if not axis.is_sub_axis:
        return (axis.name, 1, 0, 0)
    return (axis.name, 0 if axis.pre_size == 1 else 2, axis.pre_size, axis.sub_size)


def _axes_list_key(axes: Sequence[AxisRef]) -> tuple:
    return (len(axes), tuple(axis_order_key(a) for a in axes))


def _suffix_without_overlap(axis: AxisRef, other: AxisRef, mesh: Mesh) -> AxisRef | None:
    """The largest suffix of `axis` that does not overlap `other` (getSuffixWithoutOverlap)."""
    if not axis.overlaps(other, mesh):
        return axis
    this_next, other_next = axis.next_pre_size(mesh), other.next_pre_size(mesh)
    if this_next <= other_next:
        return None
    return axis.full_or_sub(mesh, other_next, this_next // other_next)


def _overlaps_any(axes: Sequence[AxisRef], others: Sequence[AxisRef], mesh: Mesh) -> bool:
    return any(a.overlaps(b, mesh) for a in axes for b in others)


def _truncate_without_overlap(axes: Sequence[AxisRef], others: Sequence[AxisRef], mesh: Mesh):
    """The longest prefix of `axes` not overlapping `others` (None if nothing overlaps)."""
    for i, axis in enumerate(axes):
        prefix = prefix_without_overlap_all(axis, others, mesh)
        if prefix != axis:
            return tuple(axes[:i]) + ((prefix,) if prefix is not None else ())
    return None


def _is_strict_prefix(first: Sequence[AxisRef], second: Sequence[AxisRef], mesh: Mesh) -> bool:
    return axis_list_prefix_status(first, second, mesh) == STRICT_PREFIX


def is_fully_replicated(sharding: TensorSharding | None) -> bool:
    return sharding is None or sharding.is_fully_replicated


def is_equivalent(a: TensorSharding | None, b: TensorSharding | None) -> bool:
    """jaxlib's isEquivalent: both replicated, or same mesh and same dimension axes."""
    if is_fully_replicated(a):
        return is_fully_replicated(b)
    if b is None:
        return False
    return a.mesh_text() == b.mesh_text() and len(a.dims) == len(b.dims) and \
        all(x.axes == y.axes for x, y in zip(a.dims, b.dims))


def _rank(value: ir.Value) -> int:
    t = value.type
    return t.rank if isinstance(t, ir.ShapedType) and t.has_rank else 0


def _num_elements(value: ir.Value) -> int:
    t = value.type
    if isinstance(t, ir.ShapedType) and t.has_static_shape:
        return math.prod(t.shape)
    return 0


def _replicated(mesh_name: str | None, rank: int, inline: Mesh | None = None) -> TensorSharding:
    return TensorSharding.replicated_like(mesh_name, rank, is_closed=True, inline_mesh=inline)


# --------------------------------------------------------------------------- the pass over one function


class ExplicitReshards:
    def __init__(self, meshes: MeshTable, policy: Policy, rules: OpShardingRuleRegistry | None,
                 enable_full_version: bool):
        self.meshes = meshes
        self.policy = policy
        self.rules = rules
        self.full = enable_full_version
        self._restore: list[tuple[ir.Value, TensorSharding]] = []  # results to reshard back after the op
        # value -> its sharding, as read; emptied when this pass sets a sharding or
        # erases an op (a new value may take an erased one's address).
        self._shardings: dict = {}
        self._table = interfaces.table()  # the run's op interfaces
        self._unreduced = True  # whether a sharding of the func may have unreduced axes (see run)
        self._rules: dict = {}  # structure key -> rule (see rule_of)
        self._store = ShardingStore(self._table)
        self.funcs: dict | None = None  # the module's functions by name, when the caller knows them

    # ------------------------------------------------------------------ IR helpers
    def mesh(self, sharding: TensorSharding) -> Mesh:
        return self.meshes.mesh_of(sharding)

    def sharding(self, value: ir.Value) -> TensorSharding | None:
        """Shardy's getSharding (a data-flow block argument reports its owner's)."""
        try:
            return self._shardings[value]
        except KeyError:
            if isinstance(value, ir.OpResult):
                # (a result's sharding is where its op keeps it: no edge, no manual axes)
                found = self._store.get(value)
            else:
                found = interfaces.edge_owner_sharding(value)
            self._shardings[value] = found
            return found

    def set_sharding(self, value: ir.Value, sharding: TensorSharding) -> None:
        interfaces.set_sharding(value, sharding)
        self._shardings.clear()  # (a per-value slot's other values may change too)

    def erase(self, op: ir.Operation) -> None:
        op.erase()
        # (a new value may take an erased one's address: forget what was known)
        self._shardings.clear()
        self._store.owners.clear()

    def sharding_bypassing_barriers(self, value: ir.Value) -> TensorSharding | None:
        table = self._table
        while isinstance(value, ir.OpResult) and table.barrier_attr(operation(value.owner).name) is not None:
            value = operation(value.owner).operands[0]
        return self.sharding(value)

    @staticmethod
    def _create(name: str, operand: ir.Value, attrs: dict, point: ir.InsertionPoint, loc) -> ir.Operation:
        return ir.Operation.create(name, results=[operand.type], operands=[operand],
                                   attributes=attrs, loc=loc, ip=point)

    def _reshard(self, operand: ir.Value, sharding: TensorSharding, point, loc) -> ir.Operation:
        return self._create(RESHARD, operand, {"sharding": codec.tensor_sharding_attr(sharding)}, point, loc)

    def _all_reduce(self, operand: ir.Value, axes: Sequence[AxisRef], sharding: TensorSharding,
                    point, loc) -> ir.Operation:
        return self._create(ALL_REDUCE, operand, {
            "reduction_axes": codec.attr("#sdy<axis_ref_list{" + ", ".join(a.text() for a in axes) + "}>"),
            "out_sharding": codec.tensor_sharding_attr(sharding)}, point, loc)

    # ------------------------------------------------------------------ driver (IER:834-941)
    def run(self, func: ir.Operation) -> None:
        func = operation(func)
        if not len(func.regions) or not len(func.regions[0].blocks):
            raise ReshardError(func, "cannot insert explicit reshards in a function declaration "
                                     "(it has no body)")
        ops: list[ir.Operation] = []
        owners = self._store.owners  # (a result's op, known here, is costly to ask the IR)
        unreduced = [False]
        table = self._table
        callees: dict = {}  # callee name -> whether its signature has unreduced axes

        def collect(op):
            op = operation(op)
            ops.append(op)
            for result in op.results:
                owners[result] = op
            if not unreduced[0]:
                unreduced[0] = _has_unreduced(op) or (
                    table.callee_attr(op.name) is not None and _callee_has_unreduced(op, callees, self.funcs))
            return ir.WalkResult.ADVANCE

        func.walk(collect, ir.WalkOrder.POST_ORDER)
        # The pass never makes unreduced axes out of none: without any in the
        # func (or its callees' signatures), its unreduced steps cannot apply,
        # and the shardings they would read need not be read.
        self._unreduced = unreduced[0]
        for op in ops:
            if op == func:
                continue
            self.visit(op)
        body = func.regions[0].blocks[0]
        terminator = operation(body.operations[len(body.operations) - 1])
        self.reshard_return(terminator, func)

    def on_full_version(self, op: ir.Operation) -> bool:
        if self.full or op.name in self.policy.full_version_ops:
            return True
        if op.name in self.policy.full_version_if_operand_differs and len(op.results):
            result = self.sharding(op.results[0])
            return any(self.sharding(v) != result for v in op.operands)
        return False

    def visit(self, op: ir.Operation) -> None:
        table = self._table
        if table.is_terminator(op):
            return
        full = self.on_full_version(op)
        if table.data_flow(op) is not None:
            self.reshard_data_flow_op(op, full)
            return
        if table.callee_attr(op.name) is not None:
            self.reshard_call(op, full)
            return
        if self.convert_reshard_to_unreduced_collectives(op):
            return
        if self._unreduced:
            self.all_reduce_unreduced_operands(op)
        if not full and op.name not in self.policy.dot_fix_ops and not (
                self._unreduced and self._unreduced_result(op)):
            return  # outside the full version only a dot or an unreduced result can change
        in_shardings = [self.sharding_bypassing_barriers(v) for v in op.operands]
        out_shardings = [self.sharding_bypassing_barriers(v) for v in op.results]
        rule = self.rule_of(op)
        if rule is None or rule.is_custom:
            return
        mesh_name = self.choose_mesh(op, in_shardings, out_shardings)
        if mesh_name is None:
            return
        mesh = self.meshes.meshes[mesh_name]
        projection = ShardingProjection.build(in_shardings, out_shardings, rule, mesh, closed_if_missing=True)
        self._restore = []
        common = self.process_op(op, projection, in_shardings, out_shardings, rule, mesh_name, mesh, full)
        after_op = {
            "all-reduces": lambda: self.all_reduce_reduction_factors(op, projection, common, rule, mesh_name,
                                                                     mesh, full),
            "result-reshards": lambda: self.restore_results(op),
        }
        # Each group goes right after the op: the nearest is created last.
        for group in reversed(self.policy.after_op):
            after_op[group]()

    def rule_of(self, op) -> OpShardingRule | None:
        """The op's rule; ops of one structure (values.structure_key) share it."""
        key = structure_key(op)
        if key is None:
            return sharding_rule_for(op, registry=self.rules)
        try:
            return self._rules[key]
        except KeyError:
            found = self._rules[key] = sharding_rule_for(op, registry=self.rules)
            return found

    def _unreduced_result(self, op) -> bool:
        if not len(op.results):
            return False
        sharding = self.sharding(op.results[0])
        return sharding is not None and bool(sharding.unreduced)

    # ------------------------------------------------------------------ mesh (IER:304-359)
    def choose_mesh(self, op, ins: Sequence, outs: Sequence) -> str | None:
        name, mesh = None, None
        for s in (*ins, *outs):
            if s is None:
                continue
            other = self.mesh(s)
            if mesh is None or (not mesh.axes and not mesh.device_ids):
                mesh, name = other, s.mesh_name
                continue
            if not other.axes and not other.device_ids:
                continue
            if other.is_maximal != mesh.is_maximal or other.axes != mesh.axes:
                return None
            if not other.device_ids:
                mesh, name = other, s.mesh_name
        if mesh is None:
            return None
        if name is None:
            # The reference looks the common mesh up as a symbol (and crashes).
            raise ReshardError(op, "shardings with an inlined mesh are not supported here "
                                   "(run sdy-lift-inlined-meshes first)")
        if mesh.is_maximal:
            return None
        counts: dict[str, int] = {}
        best, best_count = name, 0
        for s in (*ins, *outs):
            if not is_fully_replicated(s):
                counts[s.mesh_name] = counts.get(s.mesh_name, 0) + 1
                if counts[s.mesh_name] > best_count:
                    best, best_count = s.mesh_name, counts[s.mesh_name]
        return best

    # ------------------------------------------------------------------ processOp (IER:566-595)
    def process_op(self, op, projection: ShardingProjection, ins, outs, rule: OpShardingRule,
                   mesh_name: str, mesh: Mesh, full: bool) -> AxesPerFactor | None:
        if not full:
            if op.name in self.policy.dot_fix_ops:
                self.fix_dot(op, projection, outs, rule, mesh_name, mesh)
            return None
        update_ops = {i for i, t in enumerate(projection.operands) if _has_overflow(t)}
        update_res = {i for i, t in enumerate(projection.results) if _has_overflow(t)}
        if (update_ops or update_res) and op.name in self.policy.reshape_overflow_ops:
            return self.reshape_with_overflow(op, projection, outs, rule, mesh_name, mesh)
        common = find_common_axes(projection, rule, _tensor_sizes(op), mesh, self.policy)
        for factor, axes in enumerate(common):
            ops_changed, res_changed = update_sharding(projection, factor, axes)
            update_ops |= ops_changed
            update_res |= res_changed
        self.insert_reshards(op, ins, outs, projection, update_ops, update_res, rule, mesh_name, mesh)
        return common

    def _reshard_to_common_mesh(self, sharding, mesh: Mesh) -> bool:
        return not is_fully_replicated(sharding) and self.mesh(sharding).device_ids != mesh.device_ids

    def insert_reshards(self, op, ins, outs, projection, update_ops, update_res, rule,
                        mesh_name: str, mesh: Mesh) -> None:
        sizes = rule.factor_sizes
        for i, s in enumerate(ins):
            if i in update_ops or self._reshard_to_common_mesh(s, mesh):
                new = projection.operands[i].to_tensor_sharding(rule.operand_mappings[i], sizes, mesh_name, mesh)
                operand = op.operands[i]
                reshard = self._reshard(operand, new, ir.InsertionPoint(op), operand.location)
                op.operands[i] = reshard.result
        for i, s in enumerate(outs):
            if i in update_res or self._reshard_to_common_mesh(s, mesh):
                # The result takes the new sharding; a reshard after the op
                # (placed by `after_op`) restores the old one for its users.
                result = op.results[i]
                new = projection.results[i].to_tensor_sharding(rule.result_mappings[i], sizes, mesh_name, mesh)
                self._restore.append((result, self.sharding(result) or _replicated(mesh_name, _rank(result))))
                self.set_sharding(result, new)

    def restore_results(self, op) -> None:
        """The reshards back to the results' old shardings, right after the op."""
        if not self._restore:
            return
        point = ir.InsertionPoint.after(op)
        for result, old in self._restore:
            reshard = self._reshard(result, old, point, result.location)
            result.replace_all_uses_except(reshard.result, reshard)
        self._restore = []

    # ------------------------------------------------------------------ reduction all-reduces (ERU:742-869)
    def all_reduce_reduction_factors(self, op, projection, common, rule: OpShardingRule,
                                     mesh_name: str, mesh: Mesh, full: bool) -> None:
        if not len(op.results):
            return
        unreduced = self.sharding(op.results[0])
        unreduced = unreduced.unreduced if unreduced is not None else ()
        if full:
            axes = [a for f in rule.reduction_factors for a in common[f]]
        else:
            if not unreduced:
                return
            axes = []
            for f in rule.reduction_factors:
                compatible = compatible_factor_sharding(projection, f)
                if compatible is None:
                    raise ReshardError(op, f"For the operation '{op.name}', the result has unreduced axes while "
                                           "the operand has incompatible sharding along reduction factors.")
                axes.extend(compatible)
        if not axes:
            return
        axes = axis_set_difference(axes, unreduced, mesh)
        if not axes:
            return
        axes = sort_and_merge_axes(axes, mesh)
        point = ir.InsertionPoint.after(op)
        for result in op.results:
            sharding = self.sharding(result) or _replicated(mesh_name, _rank(result))
            ar = self._all_reduce(result, axes, sharding, point, result.location)
            result.replace_all_uses_except(ar.result, ar)

    # ------------------------------------------------------------------ unreduced operands (IER:361-396)
    def all_reduce_unreduced_operands(self, op) -> None:
        if not len(op.results):
            if any((s := self.sharding(v)) is not None and s.unreduced for v in op.operands):
                raise ReshardError(op, "Some operands have unreduced axes but the operation has no results.")
            return
        first = self.sharding(op.results[0])
        first_unreduced = first.unreduced if first is not None else ()
        for result in list(op.results)[1:]:
            s = self.sharding(result)
            if (s.unreduced if s is not None else ()) != first_unreduced:
                raise ReshardError(op, "Unreduced axes mismatch between results for multi-result op.")
        point = None
        for i, operand in enumerate(list(op.operands)):
            source = self.sharding(operand)
            if source is not None and source.unreduced:  # else nothing to reduce
                point = point or ir.InsertionPoint(op)
                self.all_reduce_if_unreduced_to_replicated(op, i, source, first, point)

    def all_reduce_if_unreduced_to_replicated(self, user, index: int, source: TensorSharding | None,
                                              target: TensorSharding | None, point) -> TensorSharding | None:
        if source is None or not source.unreduced:
            return source
        mesh = self.mesh(source)
        target_unreduced = ()
        if target is not None:
            target_unreduced = target.unreduced
            if self.mesh(target) != mesh:
                raise ReshardError(user, "source and user shardings have different meshes for unreduced axes.")
        axes = axis_set_difference(source.unreduced, target_unreduced, mesh)
        if not axes:
            return source
        sharding = replace(source, unreduced=tuple(axis_set_difference(source.unreduced, axes, mesh)))
        operand = user.operands[index]
        ar = self._all_reduce(operand, axes, sharding, point, operand.location)
        user.operands[index] = ar.result
        return sharding

    # ------------------------------------------------------------------ unreduced collectives (ERU:871-989)
    def insert_unreduced_collectives(self, user, index: int, out: TensorSharding | None,
                                     point) -> TensorSharding | None:
        source_value = user.operands[index]
        source = self.sharding(source_value)
        if source is None or out is None or not out.unreduced:
            return None
        mesh = self.mesh(source)
        if self.mesh(out) != mesh:
            raise ReshardError(user, "Input and output shardings have different meshes. The result has "
                                     "non-empty unreduced axes.")
        new_unreduced = axis_set_difference(out.unreduced, source.unreduced, mesh)
        if not new_unreduced:
            return None
        if axis_set_difference(source.unreduced, out.unreduced, mesh):
            raise ReshardError(user, "Both input and output have unreduced axes that does not appear in the other.")
        s2u: list[AxisRef] = []
        per_dim: list[tuple] = [() for _ in source.dims]
        need_reshard = False
        dims = list(out.dims)
        for d, (in_dim, out_dim) in enumerate(zip(source.dims, out.dims)):
            in_axes, out_axes = in_dim.axes, out_dim.axes
            status = axis_list_prefix_status(out_axes, in_axes, mesh)
            if status == STRICT_PREFIX:
                diff: list[AxisRef] = []
                if out_axes and out_axes[-1] != in_axes[len(out_axes) - 1]:
                    diff.append(_suffix_without_overlap(in_axes[len(out_axes) - 1], out_axes[-1], mesh))
                diff.extend(in_axes[len(out_axes):])
                if not axis_set_difference(diff, new_unreduced, mesh):
                    per_dim[d] = tuple(diff)
                    s2u.extend(diff)
                    dims[d] = in_dim
                else:
                    need_reshard = True
            elif status == NOT_A_PREFIX:
                need_reshard = True
        value = source_value
        last = source
        if need_reshard:
            last = replace(source, dims=tuple(dims))
            value = self._reshard(value, last, point, source_value.location).result
        r2u = axis_set_difference(new_unreduced, s2u, mesh)
        if r2u:
            last = TensorSharding(source.mesh_name, tuple(dims), out.replicated,
                                  tuple(sort_and_merge_axes([*source.unreduced, *r2u], mesh)), source.inline_mesh)
            value = self._create(REPLICATED_TO_UNREDUCED, value, {
                "axes": codec.attr("#sdy<axis_ref_list{" + ", ".join(a.text() for a in r2u) + "}>"),
                "out_sharding": codec.tensor_sharding_attr(last)}, point, source_value.location).result
        if s2u:
            value = self._create(SHARDED_TO_UNREDUCED, value, {
                "axes": codec.attr("#sdy<list_of_axis_ref_lists[" + ", ".join(
                    "{" + ", ".join(a.text() for a in axes) + "}" for axes in per_dim) + "]>"),
                "out_sharding": codec.tensor_sharding_attr(out)}, point, source_value.location).result
            last = out
        if value != source_value:
            user.operands[index] = value
            return last
        return None

    def convert_reshard_to_unreduced_collectives(self, op) -> bool:
        if op.name != RESHARD:
            return False
        target = codec.tensor_sharding(op.attributes["sharding"])
        if self.insert_unreduced_collectives(op, 0, target, ir.InsertionPoint(op)) is not None:
            op.results[0].replace_all_uses_with(op.operands[0])
            self.erase(op)
            return True
        return False

    # ------------------------------------------------------------------ reshard to a target (IER:63-112)
    def reshard_to_target(self, user, index: int, target: TensorSharding | None, point, full: bool) -> None:
        operand = user.operands[index]
        sharding = self.sharding(operand)
        if sharding is not None:
            sharding = self.all_reduce_if_unreduced_to_replicated(user, index, sharding, target, point)
        new = self.insert_unreduced_collectives(user, index, target, point)
        if new is not None:
            sharding = new
        if full and not is_equivalent(sharding, target):
            operand = user.operands[index]
            to = target if target is not None else _replicated(sharding.mesh_name, len(sharding.dims),
                                                              sharding.inline_mesh)
            user.operands[index] = self._reshard(operand, to, point, operand.location).result

    @staticmethod
    def _point_after(value: ir.Value) -> ir.InsertionPoint:
        if isinstance(value, ir.BlockArgument):
            block = value.owner
            ops = block.operations
            return ir.InsertionPoint(operation(ops[0])) if len(ops) else ir.InsertionPoint(block)
        return ir.InsertionPoint.after(operation(value.owner))

    def reshard_return(self, ret, func) -> None:
        res_attrs = list(ir.ArrayAttr(func.attributes["res_attrs"])) if "res_attrs" in func.attributes else []
        point = ir.InsertionPoint(ret)
        for i in range(len(ret.operands)):
            target = None
            if i < len(res_attrs):
                d = ir.DictAttr(res_attrs[i])
                if "sdy.sharding" in d:
                    target = codec.tensor_sharding(d["sdy.sharding"])
            self.reshard_to_target(ret, i, target, point, self.full)

    # ------------------------------------------------------------------ data-flow ops and calls (IER:114-157)
    def reshard_data_flow_op(self, op, full: bool) -> None:
        decl = self._table.data_flow(op)
        owners = interfaces.data_flow_result_owners(op) + interfaces.data_flow_block_arg_owners(op)
        for owner in owners:
            target = interfaces.sharding_of(owner)
            is_arg = isinstance(owner, ir.BlockArgument)
            if target is not None and not is_arg and decl.strip_manual_axes:
                target = erase_manual_axes(
                    target, codec.manual_axes(op.attributes[decl.strip_manual_axes]).axes)
            for user, index in _edge_sources(op, decl, owner):
                value = user.operands[index]
                self.reshard_to_target(user, index, target, self._point_after(value), full)

    def reshard_call(self, call, full: bool) -> None:
        callee_name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
        callee = _lookup_func(call, callee_name, self.funcs)
        arg_shardings = [_func_arg_sharding(callee, i) for i in range(len(call.operands))]
        mesh_of = next((s for s in arg_shardings if s is not None and not self.mesh(s).is_maximal), None)
        if mesh_of is not None:
            targets = [s if s is not None else TensorSharding.replicated_like(
                mesh_of.mesh_name, _rank(v), is_closed=False, inline_mesh=mesh_of.inline_mesh)
                for s, v in zip(arg_shardings, call.operands)]
        else:
            source = next((s for v in call.operands if (s := self.sharding(v)) is not None
                           and not self.mesh(s).is_maximal), None)
            if source is None:
                return
            targets = [_replicated(source.mesh_name, _rank(v), source.inline_mesh) for v in call.operands]
        for i, target in enumerate(targets):
            value = call.operands[i]
            self.reshard_to_target(call, i, target, self._point_after(value), full)

    # ------------------------------------------------------------------ reshape with overflow (IER:429-548)
    def reshape_with_overflow(self, op, projection, outs, rule: OpShardingRule, mesh_name: str,
                              mesh: Mesh) -> AxesPerFactor:
        if not rule.operand_mappings[0] or not rule.result_mappings[0]:
            raise ReshardError(op, "cannot redistribute overflow axes of a reshape to or from a scalar")
        operand, result = projection.operands[0], projection.results[0]
        prefer_input = _sharding_size(operand, mesh) >= _sharding_size(result, mesh)
        best = operand if prefer_input else result
        all_axes: list[AxisRef] = []
        for f in range(rule.num_factors):
            fs = best.factors.get(f)
            if fs is not None:
                all_axes.extend(fs.axes)
                all_axes.extend(fs.overflow)
        _redistribute(operand, rule.operand_mappings[0], rule.factor_sizes, mesh, all_axes)
        _redistribute(result, rule.result_mappings[0], rule.factor_sizes, mesh, all_axes)
        sizes = rule.factor_sizes
        built_in = operand.to_tensor_sharding(rule.operand_mappings[0], sizes, mesh_name, mesh)
        built_out = result.to_tensor_sharding(rule.result_mappings[0], sizes, mesh_name, mesh)
        legal = ShardingProjection.build([built_in], [built_out], rule, mesh)
        common = greatest_common_prefix_axes(legal, rule.num_factors, mesh)
        for f in range(rule.num_factors):
            update_sharding(projection, f, common[f])
        update_ops, update_res = set(), set()
        new_in = operand.to_tensor_sharding(rule.operand_mappings[0], sizes, mesh_name, mesh)
        if not is_equivalent(self.sharding(op.operands[0]), new_in):
            update_ops.add(0)
        new_out = result.to_tensor_sharding(rule.result_mappings[0], sizes, mesh_name, mesh)
        if not is_equivalent(new_out, outs[0]):
            update_res.add(0)
        ins = [self.sharding(v) for v in op.operands]
        self.insert_reshards(op, ins, outs, projection, update_ops, update_res, rule, mesh_name, mesh)
        return common

    # ------------------------------------------------------------------ the non-full dot fix (IER:201-302)
    def fix_dot(self, op, projection, outs, rule: OpShardingRule, mesh_name: str, mesh: Mesh) -> None:
        if not outs or outs[0] is None:
            return
        lhs, rhs, res = projection.operands[0], projection.operands[1], projection.results[0]
        lhs_size, rhs_size = _num_elements(op.operands[0]), _num_elements(op.operands[1])
        result_size = _num_elements(op.results[0])
        conflict, conflict_axes = None, None
        reduction: list[AxisRef] = []
        seen: list[AxisRef] = []
        for f in range(rule.num_factors):
            la = lhs.factors[f].axes if f in lhs.factors else None
            ra = rhs.factors[f].axes if f in rhs.factors else None
            if la is not None and ra is not None:
                axes, limit = la, max(lhs_size, rhs_size)
                if la != ra:
                    return
                if rule.kind_of(f) == REDUCTION:
                    reduction.extend(axes)
                    continue
            else:
                axes = la if la is not None else ra
                limit = lhs_size if la is not None else rhs_size
                for axis in axes:
                    if any(a.overlaps(axis, mesh) for a in seen):
                        return
                    seen.append(axis)
            if res.factors[f].axes != axes:
                if not axes or conflict is not None or result_size > limit:
                    return
                conflict, conflict_axes = f, axes
        if conflict is None:
            return
        res_axes = res.factors[conflict].axes
        if not res_axes or res_axes != reduction:
            return
        res.factors[conflict].axes = list(conflict_axes)
        result = op.results[0]
        self.set_sharding(result, res.to_tensor_sharding(rule.result_mappings[0], rule.factor_sizes,
                                                               mesh_name, mesh))
        reshard = self._reshard(result, outs[0], ir.InsertionPoint.after(op), op.location)
        result.replace_all_uses_except(reshard.result, reshard)


# --------------------------------------------------------------------------- projection helpers


def _has_overflow(tensor: TensorFactorShardings) -> bool:
    return any(fs.overflow for fs in tensor.factors.values())


def _sharding_size(tensor: TensorFactorShardings, mesh: Mesh) -> int:
    return math.prod(a.size(mesh) for fs in tensor.factors.values() for a in (*fs.axes, *fs.overflow))


def _tensor_sizes(op) -> list[int]:
    return [_num_elements(v) for v in (*op.operands, *op.results)]


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
                out[f] = _common_prefix(out[f], fs.axes, mesh)
    return out


def _common_prefix(a: Sequence[AxisRef], b: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    out = []
    for x, y in zip(a, b):
        if x == y:
            out.append(x)
            continue
        if x.name == y.name and x.pre_size == y.pre_size:
            out.append(x if x.size(mesh) < y.size(mesh) else y)
        break
    return out


def _redistribute(tensor: TensorFactorShardings, mapping, factor_sizes, mesh: Mesh,
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
                add_axis_or_merge(fs.axes, AxisRef(name, pre, gcd), mesh)
                current[1] = pre * gcd
                current[0] = size // gcd
                remaining[i] //= gcd
            else:
                axis = AxisRef(name) if current[1] is None else AxisRef(name, current[1], current[0])
                add_axis_or_merge(fs.axes, axis, mesh)
                remaining[i] //= size
                index += 1
                current = info(index)
                break
        if not used:
            overflow = tensor.factors[factors[-1]].overflow
            while current is not None:
                name = all_axes[index].name
                add_axis_or_merge(overflow, AxisRef(name) if current[1] is None
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


def _unary(projection, rule: OpShardingRule, tensor_sizes, mesh: Mesh, policy: Policy,
           non_scalar: list[int]) -> AxesPerFactor:
    tensors = list(projection.tensors())

    def preference(i):
        t = tensors[i]
        values = {
            "no-sharded-permutation-factor": not any(
                rule.kind_of(f) == PERMUTATION and fs.axes for f, fs in t.factors.items()),
            "tensor-size": tensor_sizes[i],
            "sharding-size": _sharding_size(t, mesh),
        }
        return tuple(values[k] for k in policy.unary_preference)

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
        cut = _truncate_without_overlap(axes, taken, mesh)
        common[f] = list(cut) if cut is not None else axes
    return common


@dataclass
class _Candidate:
    factor: int
    axes: tuple
    source_size: int
    sharding_size: int
    precedence: int


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

    fields: dict[str, Callable[[_Candidate], object]] = {
        "source-tensor-size": lambda c: c.source_size,
        "factor-type-precedence": lambda c: c.precedence,
        "sharding-size": lambda c: c.sharding_size,
        "factor-index": lambda c: c.factor,
        "axes": lambda c: _axes_list_key(c.axes),
    }
    order = [fields[k] for k in policy.ranking]

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
            cut = _truncate_without_overlap(c.axes, best.axes, mesh)
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
                add_axis_or_merge(common[b], axes[0], mesh)
                capacity //= axis_size
                axes.pop(0)
            if not axes:
                break


# --------------------------------------------------------------------------- data-flow edges, calls


def _has_unreduced(op) -> bool:
    """Whether a sharding the op keeps (not its nested ops') has unreduced axes."""
    return any(s is not None and s.unreduced for slot in sharding_slots(op) for s in slot.read())


def _callee_has_unreduced(call, known: dict, funcs: dict | None = None) -> bool:
    """Whether the callee's signature has unreduced axes (an unknown callee may);
    `known`: answers by callee name, filled here."""
    name = ir.FlatSymbolRefAttr(call.attributes[interfaces.table().callee_attr(call.name)]).value
    if name not in known:
        callee = _lookup_func(call, name, funcs)
        known[name] = callee is None or _has_unreduced(callee)
    return known[name]


def _terminator(region) -> ir.Operation:
    ops = region.blocks[0].operations
    return operation(ops[len(ops) - 1])


def _edge_sources(op, decl, owner: ir.Value) -> list[tuple[ir.Operation, int]]:
    """(user, operand index) of every source of the edge `owner` owns (getEdgeSources)."""
    if isinstance(owner, ir.BlockArgument):
        return [(op, owner.arg_number)]
    index = owner.result_number
    out = []
    if decl.source_operands and not decl.block_arg_owners:
        out.append((op, index))
    regions = range(len(op.regions)) if decl.source_terminators == ("all",) else decl.source_terminators
    for r in regions:
        out.append((_terminator(op.regions[r]), index))
    return out


def _lookup_func(op, name: str, funcs: dict | None = None):
    if funcs is not None:
        return funcs.get(name)
    module = operation(op)
    while module.name != "builtin.module":
        module = operation(module.parent)
    for candidate in module.regions[0].blocks[0].operations:
        candidate = operation(candidate)
        if candidate.name == "func.func" and ir.StringAttr(candidate.attributes["sym_name"]).value == name:
            return candidate
    return None


def _func_arg_sharding(func, index: int) -> TensorSharding | None:
    if func is None or "arg_attrs" not in func.attributes:
        return None
    d = ir.DictAttr(ir.ArrayAttr(func.attributes["arg_attrs"])[index])
    return codec.tensor_sharding(d["sdy.sharding"]) if "sdy.sharding" in d else None
