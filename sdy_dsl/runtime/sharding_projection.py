"""Tensor shardings <-> factor shardings (the "sharding projection").

An op's sharding rule maps every tensor dimension to one or more factors
(major-most first). Propagation works per factor: each tensor's dimension
shardings are projected onto the factors of its dimensions, factors are
updated, and the result is projected back onto dimension shardings.

Projection of one dimension: axes are handed to the dimension's factors from
the major-most; a non-minor-most factor takes axes (splitting an axis into
sub-axes by gcd when needed) until it is fully sharded; the minor-most factor
takes whatever remains (it may then be non-divisible, i.e. padded). When the
remaining size of a factor and of the next axis are coprime, the rest of the
axes become that factor's "overflow" axes and later factors get nothing.
"""
from __future__ import annotations

import math
from typing import Sequence

from .sharding import (STRICT_PREFIX, AxisRef, DimSharding, Mesh, TensorSharding, add_or_merge,
                       axis_list_prefix_status)

# ----------------------------------------------------------------- factor shardings


class FactorSharding:
    __slots__ = ("axes", "overflow", "is_closed", "is_minor_most")

    def __init__(self):
        self.axes: list[AxisRef] = []
        self.overflow: list[AxisRef] = []
        self.is_closed = False
        self.is_minor_most = False

    def __repr__(self):
        return (f"FactorSharding({[a.text() for a in self.axes]}, overflow="
                f"{[a.text() for a in self.overflow]}, closed={self.is_closed}, "
                f"minor_most={self.is_minor_most})")


class TensorFactorShardings:
    """Factor index -> FactorSharding for one tensor, plus its replicated/unreduced axes."""

    __slots__ = ("factors", "replicated", "unreduced")

    def __init__(self):
        self.factors: dict[int, FactorSharding] = {}
        self.replicated: tuple[AxisRef, ...] = ()
        self.unreduced: tuple[AxisRef, ...] = ()

    @property
    def excluded(self) -> tuple[AxisRef, ...]:
        """Axes no factor of this tensor may take: its replicated and unreduced ones."""
        return self.replicated + self.unreduced if self.unreduced else self.replicated

    def expand(self, factor: int, new_axes: Sequence[AxisRef], mesh: Mesh) -> bool:
        """Replace the factor's axes with `new_axes` if the old ones are a strict prefix."""
        fs = self.factors.get(factor)
        if fs is None:
            return False
        if axis_list_prefix_status(fs.axes, new_axes, mesh) != STRICT_PREFIX:
            return False
        fs.axes = list(new_axes)
        return True

    def to_tensor_sharding(self, mapping: Sequence[Sequence[int]], factor_sizes: Sequence[int],
                           mesh_name: str, mesh: Mesh) -> TensorSharding:
        """Project the factor shardings back onto the tensor's dimensions."""
        dims = []
        for dim_factors in mapping:
            is_closed = False
            axes: list[AxisRef] = []
            for factor in dim_factors:
                fs = self.factors[factor]
                is_closed |= fs.is_closed
                sharded = 1
                for i, axis in enumerate(fs.axes):
                    sharded *= axis.size(mesh)
                    if i == 0:
                        add_or_merge(axes, axis, mesh)
                    else:
                        axes.append(axis)
                if fs.overflow:
                    for i, axis in enumerate(fs.overflow):
                        if i == 0:
                            add_or_merge(axes, axis, mesh)
                        else:
                            axes.append(axis)
                    break
                if sharded < factor_sizes[factor]:
                    # Later factors would need a strided view.
                    break
            dims.append(DimSharding(tuple(axes), is_closed))
        return TensorSharding(mesh_name, tuple(dims), self.replicated, self.unreduced)


def build_tensor_factor_shardings(mapping: Sequence[Sequence[int]], sharding: TensorSharding | None,
                                  factor_sizes: Sequence[int], mesh: Mesh,
                                  closed_if_missing: bool = False) -> TensorFactorShardings:
    result = TensorFactorShardings()
    factors = result.factors
    for dim, dim_factors in enumerate(mapping):
        if sharding is not None:
            dim_sharding = sharding.dims[dim]
            axes = dim_sharding.axes
            dim_closed = dim_sharding.is_closed
        else:
            axes = ()
            dim_closed = closed_if_missing
        if not axes:  # nothing to hand out (most dimensions)
            for factor in dim_factors:
                fs = factors.get(factor)
                if fs is None:
                    fs = factors[factor] = FactorSharding()
                fs.is_minor_most = factor == dim_factors[-1]
                fs.is_closed = dim_closed
            continue
        if len(dim_factors) == 1:  # one factor takes every axis (most sharded dimensions)
            fs = factors.get(dim_factors[0])
            if fs is None:
                fs = factors[dim_factors[0]] = FactorSharding()
            fs.is_minor_most = True
            fs.is_closed = dim_closed
            for axis in axes:
                add_or_merge(fs.axes, axis, mesh)
            continue
        # The axis being handed out: index into `axes`, its remaining size and,
        # once split (or if it is a sub-axis), its pre-size.
        axis_index = 0
        rem_size, rem_pre = _axis_info(axes, 0, mesh)
        has_overflow = False
        minor_most = dim_factors[-1] if dim_factors else None
        for factor in dim_factors:
            fs = factors.get(factor)
            if fs is None:
                fs = factors[factor] = FactorSharding()
            fs.is_minor_most = factor == minor_most
            if has_overflow:
                fs.is_closed = True
                break
            fs.is_closed = dim_closed
            rem_factor = factor_sizes[factor]
            if fs.is_minor_most:
                _add_remaining(fs.axes, rem_size, rem_pre, axes, axis_index, mesh)
                break
            gcd = 1
            while rem_size is not None:
                if rem_size != 1:
                    gcd = math.gcd(rem_factor, rem_size)
                    if gcd <= 1:
                        break
                name = axes[axis_index].name
                if rem_size > gcd:
                    pre = rem_pre if rem_pre is not None else 1
                    fs.axes.append(axes[axis_index].full_or_sub(mesh, pre, gcd))
                    rem_pre = pre * gcd
                    rem_size //= gcd
                    rem_factor //= gcd
                else:
                    fs.axes.append(AxisRef(name) if rem_pre is None
                                   else axes[axis_index].full_or_sub(mesh, rem_pre, rem_size))
                    rem_factor //= rem_size
                    axis_index += 1
                    rem_size, rem_pre = _axis_info(axes, axis_index, mesh)
            if rem_factor > 1 and rem_size is not None:
                has_overflow = True
                _add_remaining(fs.overflow, rem_size, rem_pre, axes, axis_index, mesh)
    if sharding is not None:
        result.replicated = sharding.replicated
        result.unreduced = sharding.unreduced
    return result


def _axis_info(axes: Sequence[AxisRef], index: int, mesh: Mesh) -> tuple[int | None, int | None]:
    if index >= len(axes):
        return None, None
    axis = axes[index]
    return axis.size(mesh), (axis.pre_size if axis.is_sub_axis else None)


def _add_remaining(out: list[AxisRef], rem_size, rem_pre, axes, axis_index, mesh) -> None:
    while rem_size is not None:
        name = axes[axis_index].name
        axis = AxisRef(name) if rem_pre is None else AxisRef(name, rem_pre, rem_size)
        add_or_merge(out, axis, mesh)
        axis_index += 1
        rem_size, rem_pre = _axis_info(axes, axis_index, mesh)


class ShardingProjection:
    __slots__ = ("operands", "results")

    def __init__(self, operands: list[TensorFactorShardings], results: list[TensorFactorShardings]):
        self.operands = operands
        self.results = results

    @staticmethod
    def build(operand_shardings, result_shardings, rule, mesh: Mesh,
              closed_if_missing: bool = False) -> "ShardingProjection":
        sizes = rule.factor_sizes
        return ShardingProjection(
            [build_tensor_factor_shardings(m, s, sizes, mesh, closed_if_missing)
             for m, s in zip(rule.operand_mappings, operand_shardings, strict=True)],
            [build_tensor_factor_shardings(m, s, sizes, mesh, closed_if_missing)
             for m, s in zip(rule.result_mappings, result_shardings, strict=True)])

    def tensors(self):
        yield from self.operands
        yield from self.results

    def expand(self, factor: int, new_axes, mesh: Mesh) -> tuple[set[int], set[int]]:
        """Expand every tensor's sharding of `factor` to `new_axes` where possible."""
        ops = {i for i, t in enumerate(self.operands) if t.expand(factor, new_axes, mesh)}
        res = {i for i, t in enumerate(self.results) if t.expand(factor, new_axes, mesh)}
        return ops, res

