"""Where sdy-insert-explicit-reshards puts its collectives (Shardy's
insertExplicitReshards and the all-reduce / unreduced helpers of
explicit_reshards_util.cc and insert_explicit_reshards.cc): the IR access of
the pass (shardings read through the op registry's slots), `sdy.reshard`
before an op's operands and after its results (restoring the original
sharding for the other users), `sdy.all_reduce` for reduction factors and
unreduced axes, and the unreduced collectives a reshard turns into.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from jaxlib.mlir import ir

from . import interfaces
from .op_sharding_rule import OpShardingRule
from .op_sharding_rule_registry import OpShardingRuleRegistry
from .sharding_store import ShardingStore
from .sharding import (NOT_A_PREFIX, STRICT_PREFIX, AxisRef, Mesh, TensorSharding, axis_list_prefix_status,
                       axis_set_difference, codec, sort_and_merge_axes)
from .values import MeshTable, operation
from .explicit_reshards_util import (ALL_REDUCE, REPLICATED_TO_UNREDUCED, RESHARD,
                                     SHARDED_TO_UNREDUCED, Policy, ReshardError,
                                     compatible_factor_sharding, is_equivalent, is_fully_replicated,
                                     replicated_sharding, value_rank)


class ReshardPlacement:
    """The IR side of the pass over one function: reading and setting
    shardings, creating the collectives (insert_explicit_reshards.py drives it)."""

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
        self._func_args: dict = {}  # argument of the function run on -> its sharding (see run)

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
                owner = self._store.owners.get(value)
                return self.result_sharding(value, owner if owner is not None else value.owner.operation)
            if value in self._func_args:  # (an argument of the function: its arg_attrs)
                found = self._func_args[value]
            else:
                found = interfaces.edge_owner_sharding(value)
            self._shardings[value] = found
            return found

    def set_sharding(self, result: ir.OpResult, sharding: TensorSharding) -> None:
        """Set the sharding of a result of an op the pass visits."""
        interfaces.set_sharding(result, sharding)
        op = result.owner.operation
        if len(op.regions):  # (its results may own the edges of block arguments read through them)
            self._shardings.clear()
            return
        for value in op.results:  # (a per-value slot's other values may change too)
            self._shardings.pop(value, None)

    def erase(self, op: ir.Operation) -> None:
        """Erase an op without regions (an `sdy.reshard`)."""
        # (a new value may take an erased one's address: forget what was known of its results)
        for value in op.results:
            self._shardings.pop(value, None)
            self._store.owners.pop(value, None)
        op.erase()

    def result_sharding(self, value: ir.OpResult, op: ir.Operation) -> TensorSharding | None:
        """`sharding` of a result of `op` (known to the caller: the store need not
        locate the value's slot)."""
        try:
            return self._shardings[value]
        except KeyError:
            decl = self._table.result_slot(op.name)
            found = self._shardings[value] = (
                self._store.result_sharding(op, decl, value.result_number) if decl is not None else None)
            return found

    def sharding_bypassing_barriers(self, value: ir.Value) -> TensorSharding | None:
        table = self._table
        owners = self._store.owners  # (known ops of results: asking the IR is costly)
        while isinstance(value, ir.OpResult):
            owner = owners.get(value)
            if owner is None:
                owner = owners[value] = value.owner.operation
            if table.barrier_attr(owner.name) is None:
                return self.result_sharding(value, owner)
            value = owner.operands[0]
        return self.sharding(value)

    def result_shardings_bypassing_barriers(self, op: ir.Operation) -> list:
        """`sharding_bypassing_barriers` of each result of `op`."""
        if self._table.barrier_attr(op.name) is not None:
            return [self.sharding_bypassing_barriers(v) for v in op.results]
        return [self.result_sharding(v, op) for v in op.results]

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
                self._restore.append((result, self.sharding(result) or replicated_sharding(mesh_name, value_rank(result))))
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
            sharding = self.sharding(result) or replicated_sharding(mesh_name, value_rank(result))
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
                    diff.append(in_axes[len(out_axes) - 1].suffix_without_overlap(out_axes[-1], mesh))
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
        """`point`: where the collectives go, or a function making it (called
        once, before the first collective: most operands need none)."""
        operand = user.operands[index]
        sharding = self.sharding(operand)
        if callable(point) and (sharding is not None and sharding.unreduced or target is not None and target.unreduced):
            point = point()
        if sharding is not None and sharding.unreduced:
            sharding = self.all_reduce_if_unreduced_to_replicated(user, index, sharding, target, point)
        if target is not None and target.unreduced:  # (else there are no unreduced collectives)
            new = self.insert_unreduced_collectives(user, index, target, point)
            if new is not None:
                sharding = new
        if full and not is_equivalent(sharding, target):
            if callable(point):
                point = point()
            operand = user.operands[index]
            to = target if target is not None else replicated_sharding(sharding.mesh_name, len(sharding.dims),
                                                              sharding.inline_mesh)
            user.operands[index] = self._reshard(operand, to, point, operand.location).result

    @staticmethod
    def _point_after(value: ir.Value) -> ir.InsertionPoint:
        if isinstance(value, ir.BlockArgument):
            block = value.owner
            ops = block.operations
            return ir.InsertionPoint(operation(ops[0])) if len(ops) else ir.InsertionPoint(block)
        return ir.InsertionPoint.after(operation(value.owner))

    def _reshard_to_common_mesh(self, sharding, mesh: Mesh) -> bool:
        return not is_fully_replicated(sharding) and self.mesh(sharding).device_ids != mesh.device_ids
