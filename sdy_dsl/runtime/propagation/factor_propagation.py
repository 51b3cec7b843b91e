"""Factor propagation strategies: basic (no conflict resolution) and aggressive.

Both work on a ShardingProjection, factor by factor:
1. the compatible major axes of a factor: the longest axis list every tensor's
   sharding of that factor agrees with (one tensor may extend another's list;
   with FORWARD/BACKWARD only operands/results may extend it);
2. conflicts removed: an axis is cut (to a prefix, or dropped together with
   every axis after it) when it overlaps a tensor's replicated axes, another
   factor's axes, or cannot be added to a tensor's factor (closed dimension,
   overflow axes, or it would not divide a non-minor-most factor);
3. every tensor whose factor sharding is a strict prefix of the result is
   expanded to it.
Basic checks conflicts with other factors in every tensor. Aggressive only in
the tensors that hold the factor, and also against the axes other factors are
about to receive there.
"""
from __future__ import annotations

import enum
import math
from typing import Callable, Sequence

from ..sharding import AxisRef, Mesh, axes_size
from .projection import (NOT_A_PREFIX, STRICT_PREFIX, FactorSharding, ShardingProjection,
                         TensorFactorShardings, axis_list_prefix_status, full_or_sub,
                         prefix_without_overlap_all)


class Direction(enum.IntEnum):
    NONE = 0
    FORWARD = 1
    BACKWARD = 2
    BOTH = 3

    @staticmethod
    def parse(text: str) -> "Direction":
        return Direction[text.strip().upper()]


def union_directions(a: Direction, b: Direction) -> Direction:
    if {a, b} == {Direction.FORWARD, Direction.BACKWARD}:
        return Direction.BOTH
    return max(a, b)


def intersect_directions(a: Direction, b: Direction) -> Direction:
    if {a, b} == {Direction.FORWARD, Direction.BACKWARD}:
        return Direction.NONE
    return min(a, b)


DirectionAlongFactor = Callable[[int], Direction]


# ----------------------------------------------------------------- compatible major axes


def _compatible_major_axes_step(old: list[AxisRef], new: Sequence[AxisRef], can_expand: bool,
                                mesh: Mesh) -> tuple[list[AxisRef], bool]:
    result: list[AxisRef] = []
    i = 0
    n_old, n_new = len(old), len(new)
    while i < n_old and i < n_new:
        old_axis, new_axis = old[i], new[i]
        i += 1
        if old_axis.name != new_axis.name:
            return result, False
        if (old_axis.pre_size, old_axis.sub_size) == (new_axis.pre_size, new_axis.sub_size):
            result.append(new_axis)
            continue
        if new_axis.prefix_of(old_axis, mesh):
            if i < n_new:
                result.append(new_axis)
                return result, False
            result.append(old_axis)
        elif old_axis.prefix_of(new_axis, mesh):
            if not can_expand or i < n_old:
                result.append(old_axis)
                return result, False
            result.append(new_axis)
        else:
            return result, False
    result.extend(old[i:])
    if can_expand:
        result.extend(new[i:])
    return result, can_expand


def compatible_major_axes(projection: ShardingProjection, factor: int, direction: Direction,
                          mesh: Mesh) -> list[AxisRef]:
    if direction == Direction.NONE:
        return []
    if direction == Direction.BACKWARD:
        first, second = projection.results, projection.operands
    else:
        first, second = projection.operands, projection.results
    axes: list[AxisRef] = []
    can_expand = True
    for tensor in first:
        fs = tensor.factors.get(factor)
        if fs is not None:
            axes, can_expand = _compatible_major_axes_step(axes, fs.axes, can_expand, mesh)
    if direction != Direction.BOTH:
        can_expand = False
    for tensor in second:
        fs = tensor.factors.get(factor)
        if fs is not None:
            axes, can_expand = _compatible_major_axes_step(axes, fs.axes, can_expand, mesh)
    return axes


# ----------------------------------------------------------------- conflicts


def no_conflicts_across_factors(axis: AxisRef, tensor: TensorFactorShardings, factor: int,
                                mesh: Mesh, new_axes_per_factor=None) -> AxisRef | None:
    result = axis
    for other, fs in tensor.factors.items():
        if other == factor:
            continue
        result = prefix_without_overlap_all(result, fs.overflow, mesh)
        result = prefix_without_overlap_all(result, fs.axes, mesh)
        if new_axes_per_factor is not None:
            result = prefix_without_overlap_all(result, new_axes_per_factor[other], mesh)
        if result is None:
            return None
    return result


def no_conflicts_within_factor(axis: AxisRef, replicated: Sequence[AxisRef], fs: FactorSharding,
                               prev_sharded_size: int, factor_size: int,
                               mesh: Mesh) -> AxisRef | None:
    result = prefix_without_overlap_all(axis, replicated, mesh)
    if result is None:
        return None
    factor_axes = fs.axes
    for existing in factor_axes:
        if existing.contains(result, mesh):
            return result
    if not fs.is_closed and not fs.overflow:
        if fs.is_minor_most:
            return result
        if factor_size % prev_sharded_size == 0:
            axis_size = result.size(mesh)
            gcd = math.gcd(factor_size // prev_sharded_size, axis_size)
            if gcd == axis_size:
                return result
            if gcd != 1:
                return full_or_sub(result.name, result.pre_size, gcd, mesh)
    if factor_axes and factor_axes[-1].prefix_of(result, mesh):
        return factor_axes[-1]
    return None


def truncate_by_removing_conflicts(axes: list[AxisRef],
                                   remove_conflicts: Callable[[AxisRef, int], AxisRef | None],
                                   mesh: Mesh, conservative: bool) -> None:
    """Cut `axes` at the first axis that conflicts (keeping its compatible prefix)."""
    prev_sharded_size = 1
    for index, axis in enumerate(axes):
        new_axis = remove_conflicts(axis, prev_sharded_size)
        if new_axis is None or (conservative and new_axis.is_sub_axis):
            del axes[index:]
            return
        if new_axis != axis:
            axes[index] = new_axis
            del axes[index + 1:]
            return
        prev_sharded_size *= new_axis.size(mesh)


# ----------------------------------------------------------------- strategies


class BasicFactorPropagation:
    name = "basic"

    def compatible_prefix(self, axis: AxisRef, projection: ShardingProjection, factor: int,
                          prev_sharded_size: int, factor_size: int, mesh: Mesh) -> AxisRef | None:
        result = axis
        for tensor in projection.tensors():
            result = no_conflicts_across_factors(result, tensor, factor, mesh)
            if result is None:
                return None
            fs = tensor.factors.get(factor)
            if fs is not None:
                result = no_conflicts_within_factor(result, tensor.excluded, fs,
                                                    prev_sharded_size, factor_size, mesh)
                if result is None:
                    return None
        return result

    def propagate(self, projection: ShardingProjection, direction_along_factor: DirectionAlongFactor,
                  factor_sizes: Sequence[int], mesh: Mesh, conservative: bool,
                  op=None) -> tuple[set[int], set[int]]:
        updated_operands: set[int] = set()
        updated_results: set[int] = set()
        for factor, factor_size in enumerate(factor_sizes):
            axes = compatible_major_axes(projection, factor, direction_along_factor(factor), mesh)
            if not axes:
                continue
            truncate_by_removing_conflicts(
                axes, lambda a, prev: self.compatible_prefix(a, projection, factor, prev,
                                                             factor_size, mesh),
                mesh, conservative)
            ops, res = projection.expand(factor, axes, mesh)
            updated_operands |= ops
            updated_results |= res
        return updated_operands, updated_results


class AggressiveFactorPropagation(BasicFactorPropagation):
    """Resolves conflicts between factors by preference, tensor by tensor.

    Factors are visited by preference: the factor whose "source" tensor (the
    largest tensor whose sharding of the factor agrees with the compatible
    axes) is largest first, then lower source tensor index, then lower factor
    index. Each tensor then takes the longest prefix of the factor's axes it
    can hold, given its current (already updated) state: results first
    (unless BACKWARD), then operands (unless FORWARD).
    """
    name = "aggressive"

    def __init__(self, is_elementwise: Callable | None = None):
        self.is_elementwise = is_elementwise

    def _propagated_axes(self, factor: int, tensor: TensorFactorShardings, per_factor,
                         mesh: Mesh, conservative: bool, factor_sizes) -> list[AxisRef]:
        fs = tensor.factors.get(factor)
        if fs is None:
            return []
        new_axes = list(per_factor[factor])
        size = factor_sizes[factor]
        truncate_by_removing_conflicts(
            new_axes, lambda a, prev: no_conflicts_within_factor(a, tensor.excluded, fs, prev,
                                                                 size, mesh),
            mesh, conservative)
        if axis_list_prefix_status(fs.axes, new_axes, mesh) != STRICT_PREFIX:
            return []
        truncate_by_removing_conflicts(
            new_axes, lambda a, _prev: no_conflicts_across_factors(a, tensor, factor, mesh),
            mesh, conservative)
        return new_axes

    def propagate(self, projection: ShardingProjection, direction_along_factor: DirectionAlongFactor,
                  factor_sizes: Sequence[int], mesh: Mesh, conservative: bool,
                  op=None) -> tuple[set[int], set[int]]:
        updated_operands: set[int] = set()
        updated_results: set[int] = set()
        num_factors = len(factor_sizes)
        directions = [direction_along_factor(f) for f in range(num_factors)]
        per_factor = [compatible_major_axes(projection, f, directions[f], mesh)
                      for f in range(num_factors)]
        if not any(per_factor):
            return updated_operands, updated_results

        # The source tensor of each factor: the largest one whose sharding of
        # the factor is a prefix of (or equal to) the factor's new axes.
        source_size = [-1] * num_factors
        source_index = [-1] * num_factors
        for index, tensor in enumerate(projection.tensors()):
            tensor_size = 1
            for factor in tensor.factors:
                tensor_size *= factor_sizes[factor]
            for factor, fs in tensor.factors.items():
                axes = per_factor[factor]
                if (axes and axis_list_prefix_status(axes, fs.axes, mesh) != NOT_A_PREFIX
                        and tensor_size > source_size[factor]):
                    source_size[factor] = tensor_size
                    source_index[factor] = index
        # Preference: larger source tensor, then (elementwise ops) the most
        # sharded factor, then lower source tensor index, then lower factor index.
        elementwise = op is not None and self.is_elementwise is not None and self.is_elementwise(op)
        sharded = ([axes_size(per_factor[f], mesh) for f in range(num_factors)] if elementwise
                   else [0] * num_factors)
        order = sorted(range(num_factors), key=lambda f: (-source_size[f], -sharded[f], source_index[f], f))

        for factor in order:
            direction = directions[factor]
            if direction != Direction.BACKWARD:
                for index, tensor in enumerate(projection.results):
                    new_axes = self._propagated_axes(factor, tensor, per_factor, mesh,
                                                     conservative, factor_sizes)
                    if new_axes and tensor.expand(factor, new_axes, mesh):
                        updated_results.add(index)
            if direction != Direction.FORWARD:
                for index, tensor in enumerate(projection.operands):
                    new_axes = self._propagated_axes(factor, tensor, per_factor, mesh,
                                                     conservative, factor_sizes)
                    if not new_axes:
                        continue
                    if elementwise:
                        # No sideways propagation between operands of elementwise
                        # ops: cap at what a result already has.
                        for result in projection.results:
                            rfs = result.factors.get(factor)
                            if (rfs is not None and axis_list_prefix_status(
                                    rfs.axes, new_axes, mesh) == STRICT_PREFIX):
                                new_axes = list(rfs.axes)
                    if tensor.expand(factor, new_axes, mesh):
                        updated_operands.add(index)
        return updated_operands, updated_results


BASIC = BasicFactorPropagation()


def _is_elementwise_op(op) -> bool:
    from .heuristics import is_elementwise_operation
    return is_elementwise_operation(op)


AGGRESSIVE = AggressiveFactorPropagation(_is_elementwise_op)
