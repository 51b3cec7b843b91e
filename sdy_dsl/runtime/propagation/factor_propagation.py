"""Factor propagation: the interface both strategies implement (Shardy's
factor_propagation.h) and the directions a factor may propagate in.

A strategy's `propagate(projection, direction_along_factor, factor_sizes,
mesh, conservative, elementwise)` expands the tensors' factor shardings of a
ShardingProjection in place and returns the indices of the operands and
results it updated. The strategies: basic_factor_propagation.py (no conflict
resolution) and aggressive_factor_propagation.py.
"""
from __future__ import annotations

import enum
from typing import Callable


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
