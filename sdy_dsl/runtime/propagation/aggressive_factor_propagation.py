"""The aggressive factor propagation strategy (Shardy's
aggressive_factor_propagation.cc): resolves conflicts between factors.

Like basic, but conflicts with other factors are checked only in the tensors
that hold the factor, also against the axes other factors are about to
receive there, and the factors are visited by preference.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..sharding import NOT_A_PREFIX, STRICT_PREFIX, AxisRef, Mesh, axes_size, axis_list_prefix_status
from ..vocabulary import Vocabulary
from .basic_factor_propagation import (BasicFactorPropagation, compatible_major_axes,
                                       no_conflicts_across_factors, no_conflicts_within_factor,
                                       truncate_by_removing_conflicts)
from .factor_propagation import Direction, DirectionAlongFactor
from ..sharding_projection import ShardingProjection, TensorFactorShardings


class FactorFacts:
    """What the ranking fields compare, per factor of one step: its source
    tensor (the largest tensor whose sharding of the factor is a prefix of the
    factor's new axes; -1 when none), and the size of the new axes."""

    __slots__ = ("source_size", "source_index", "new_axes_size", "elementwise")

    def __init__(self, source_size, source_index, new_axes_size, elementwise):
        self.source_size, self.source_index = source_size, source_index
        self.new_axes_size, self.elementwise = new_axes_size, elementwise


# The fields a `factor-ranking` param (rules/propagation/aggressive_propagate.yaml)
# compares, in its order: each gives, per factor, a key where smaller goes first.
FACTOR_RANKING_FIELDS: Vocabulary[Callable] = Vocabulary("factor ranking field", name="factor-ranking-field")
FACTOR_RANKING_FIELDS.register(
    "source-tensor-size", lambda facts: [-size for size in facts.source_size])  # larger source first
FACTOR_RANKING_FIELDS.register(  # (the reference's: only elementwise ops compare the new axes)
    "elementwise-sharding-size",
    lambda facts: [-size for size in facts.new_axes_size] if facts.elementwise else [0] * len(facts.new_axes_size))
FACTOR_RANKING_FIELDS.register(
    "sharding-size", lambda facts: [-size for size in facts.new_axes_size])  # more new sharding first, any op
FACTOR_RANKING_FIELDS.register(
    "source-tensor-index", lambda facts: facts.source_index)  # operands before results, in order
FACTOR_RANKING_FIELDS.register("factor-index", lambda facts: list(range(len(facts.source_size))))
# Shardy's order (aggressive_factor_propagation.cc).
REFERENCE_FACTOR_RANKING = ("source-tensor-size", "elementwise-sharding-size", "source-tensor-index",
                            "factor-index")


class AggressiveFactorPropagation(BasicFactorPropagation):
    """Resolves conflicts between factors by preference, tensor by tensor.

    Factors are visited by preference, comparing the fields of `ranking` in
    order (FACTOR_RANKING_FIELDS; ties: the lower factor index). Shardy's: the
    factor whose "source" tensor (the largest tensor whose sharding of the
    factor agrees with the compatible axes) is largest first, then (on an
    elementwise op) the factor with the most new sharding, then lower source
    tensor index, then lower factor index. Each tensor then takes the longest
    prefix of the factor's axes it can hold, given its current (already
    updated) state: results first (unless BACKWARD), then operands (unless
    FORWARD).
    """
    name = "aggressive"
    asks_elementwise = True  # the caller says whether the op is elementwise

    def __init__(self, ranking: Sequence[str] = REFERENCE_FACTOR_RANKING):
        self.ranking = tuple(ranking)
        self._fields = [FACTOR_RANKING_FIELDS[name] for name in self.ranking]

    def ranked(self, ranking: Sequence[str]) -> "AggressiveFactorPropagation":
        """This strategy with another factor ranking (itself when the same)."""
        return self if tuple(ranking) == self.ranking else AggressiveFactorPropagation(ranking)

    def _propagated_axes(self, factor: int, tensor: TensorFactorShardings, per_factor,
                         mesh: Mesh, conservative: bool, factor_sizes) -> list[AxisRef]:
        fs = tensor.factors.get(factor)
        if fs is None or fs.axes == per_factor[factor]:
            return []  # (removing conflicts only shortens the axes: none a tensor holding them lacks)
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
            factors = tensor.factors
            tensor_size = 1
            for factor in factors:
                tensor_size *= factor_sizes[factor]
            for factor, fs in factors.items():
                axes = per_factor[factor]
                if (axes and tensor_size > source_size[factor]
                        and axis_list_prefix_status(axes, fs.axes, mesh) != NOT_A_PREFIX):
                    source_size[factor] = tensor_size
                    source_index[factor] = index
        # Preference: the ranking's fields in order (ties: the lower factor
        # index). A factor without new axes gives no tensor anything: left out.
        facts = FactorFacts(source_size, source_index,
                            [axes_size(per_factor[f], mesh) for f in range(num_factors)], elementwise)
        columns = [field(facts) for field in self._fields]
        rank_keys = list(zip(*columns)) if columns else [()] * num_factors
        order = sorted([f for f in range(num_factors) if per_factor[f]], key=rank_keys.__getitem__)

        for factor in order:
            direction = directions[factor]
            if direction != Direction.BACKWARD:
                for index, tensor in enumerate(projection.results):
                    if factor not in tensor.factors:
                        continue
                    new_axes = self._propagated_axes(factor, tensor, per_factor, mesh,
                                                     conservative, factor_sizes)
                    if new_axes and tensor.expand(factor, new_axes, mesh):
                        updated_results.add(index)
            if direction != Direction.FORWARD:
                for index, tensor in enumerate(projection.operands):
                    if factor not in tensor.factors:
                        continue
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
