"""The basic factor propagation strategy (Shardy's basic_factor_propagation.cc):
no conflict resolution.

Works on a ShardingProjection, factor by factor:
1. the compatible major axes of a factor: the longest axis list every tensor's
   sharding of that factor agrees with (one tensor may extend another's list;
   with FORWARD/BACKWARD only operands/results may extend it);
2. conflicts removed: an axis is cut (to a prefix, or dropped together with
   every axis after it) when it overlaps a tensor's replicated axes, another
   factor's axes, or cannot be added to a tensor's factor (closed dimension,
   overflow axes, or it would not divide a non-minor-most factor);
3. every tensor whose factor sharding is a strict prefix of the result is
   expanded to it.
Basic checks conflicts with other factors in every tensor.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from ..sharding import AxisRef, Mesh, prefix_without_overlap_all
from .factor_propagation import Direction, DirectionAlongFactor
from ..sharding_projection import FactorSharding, ShardingProjection, TensorFactorShardings

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
        if fs is not None and fs.axes:  # (no axes: a step that keeps `axes` as they are)
            axes, can_expand = _compatible_major_axes_step(axes, fs.axes, can_expand, mesh)
    if direction != Direction.BOTH:
        can_expand = False
    for tensor in second:
        fs = tensor.factors.get(factor)
        if fs is not None and fs.axes:
            axes, can_expand = _compatible_major_axes_step(axes, fs.axes, can_expand, mesh)
    return axes


# ----------------------------------------------------------------- conflicts


def no_conflicts_across_factors(axis: AxisRef, tensor: TensorFactorShardings, factor: int,
                                mesh: Mesh) -> AxisRef | None:
    result = axis
    for other, fs in tensor.factors.items():
        if other == factor:
            continue
        result = prefix_without_overlap_all(result, fs.overflow, mesh)
        result = prefix_without_overlap_all(result, fs.axes, mesh)
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
                return result.full_or_sub(mesh, result.pre_size, gcd)
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
    asks_elementwise = False  # (the aggressive strategy prefers factors differently for them)

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
                  elementwise: bool = False) -> tuple[set[int], set[int]]:
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


BASIC = BasicFactorPropagation()
