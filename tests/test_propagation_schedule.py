"""A propagation pass's schedule (`params: {schedule: [...]}`), read by
`Schedule.from_params`: the levels (a registered vocabulary), the factor
strategies of the innermost level, and the errors a rule file gets."""
from __future__ import annotations

import pytest

from sdy_dsl.runtime.propagation.aggressive_factor_propagation import AGGRESSIVE
from sdy_dsl.runtime.propagation.basic_factor_propagation import BASIC
from sdy_dsl.runtime.propagation.schedule import LEVELS, Schedule

OPTIONS = {"propagation-strategy": "basic-then-aggressive", "run-op-priority-propagation": False}


@pytest.mark.parametrize("entries,levels,strategies", [
    ([{"strategies": ["basic"]}], (), (BASIC,)),
    ([{"strategies": {"option": "propagation-strategy"}}], (), (BASIC, AGGRESSIVE)),
    (["user-priorities", "op-priorities", {"strategies": ["aggressive"]}],
     ("user-priorities", "op-priorities"), (AGGRESSIVE,)),
    # a level enabled by an option that is off is not run
    ([{"op-priorities": {"enabled-by": "run-op-priority-propagation"}}, {"strategies": ["basic"]}],
     (), (BASIC,)),
], ids=["basic", "strategy-option", "nested", "disabled-level"])
def test_schedule_from_params(entries, levels, strategies):
    schedule = Schedule.from_params(entries, OPTIONS)
    assert (schedule.levels, schedule.strategies) == (levels, strategies)


@pytest.mark.parametrize("entries,message", [
    ([], "'schedule' is a non-empty list"),
    (["op-priorities"], "the schedule needs a last level 'strategies'"),
    ([{"strategies": ["basic"]}, "op-priorities"], "'strategies' must be the last (innermost) level"),
    (["op-priorites", {"strategies": ["basic"]}],
     "unknown schedule level 'op-priorites' (expected one of: user-priorities, op-priorities, strategies)"),
    ([{"strategies": ["agressive"]}], "unknown factor strategy 'agressive' (did you mean 'aggressive'?)"),
    ([{"strategies": {"option": "no-such-option"}}], "'strategies' reads option 'no-such-option'"),
], ids=["empty", "no-strategies", "strategies-not-last", "unknown-level", "misspelled-strategy",
        "unknown-option"])
def test_schedule_from_params_errors(entries, message):
    with pytest.raises(ValueError) as e:
        Schedule.from_params(entries, OPTIONS)
    assert message in str(e.value)


def test_the_levels_are_a_vocabulary():
    assert LEVELS.names() == ("user-priorities", "op-priorities")
    assert LEVELS.unknown_message("user-priority") == (
        "unknown schedule level 'user-priority' (did you mean 'user-priorities'?)")
