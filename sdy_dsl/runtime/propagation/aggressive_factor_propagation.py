"""The aggressive factor propagation strategy (Shardy's
aggressive_factor_propagation.cc): resolves conflicts between factors.

Like basic, but conflicts with other factors are checked only in the tensors
that hold the factor, also against the axes other factors are about to
receive there, and the factors are visited by preference.
"""
from __future__ import annotations

from typing import Sequence

from ..sharding import NOT_A_PREFIX, STRICT_PREFIX, AxisRef, Mesh, axes_size, axis_list_prefix_status
from .basic_factor_propagation import (BasicFactorPropagation, compatible_major_axes,
                                       no_conflicts_across_factors, no_conflicts_within_factor,
                                       truncate_by_removing_conflicts)
from .factor_propagation import Direction, DirectionAlongFactor
from ..sharding_projection import ShardingProjection, TensorFactorShardings

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
    asks_elementwise = True  # the caller says whether the op is elementwise

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
                  elementwise: bool = False) -> tuple[set[int], set[int]]:
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


AGGRESSIVE = AggressiveFactorPropagation()
