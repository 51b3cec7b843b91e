"""Aggressive propagation (Shardy's aggressive_propagation.cc): the
innermost level of every schedule, one basic-propagation run (basic_propagate,
a fixed point) per factor strategy of the pass's propagation strategy.

The vocabularies a rule file names: FACTOR_STRATEGIES (`strategies: [basic,
aggressive]`) and PROPAGATION_STRATEGIES (the `propagation-strategy` option,
as the reference spells its values).
"""
from __future__ import annotations

from typing import Sequence

from ..vocabulary import Vocabulary
from .aggressive_factor_propagation import AGGRESSIVE
from .basic_factor_propagation import BASIC, BasicFactorPropagation
from .basic_propagation import PropagationEngine, basic_propagate

FACTOR_STRATEGIES: Vocabulary[BasicFactorPropagation] = Vocabulary("factor strategy")
FACTOR_STRATEGIES.register("basic", BASIC)
FACTOR_STRATEGIES.register("aggressive", AGGRESSIVE)

PROPAGATION_STRATEGIES: Vocabulary[tuple] = Vocabulary("propagation strategy")
PROPAGATION_STRATEGIES.register("aggressive", (AGGRESSIVE,))
PROPAGATION_STRATEGIES.register("basic", (BASIC,))
PROPAGATION_STRATEGIES.register("basic-then-aggressive", (BASIC, AGGRESSIVE))


def strategies_level(engine: PropagationEngine, strategies: Sequence[BasicFactorPropagation]):
    """The innermost level: a fixed-point run per factor strategy."""
    def run(get_direction):
        for strategy in strategies:
            basic_propagate(engine, strategy, get_direction)
    return run
