"""Sharding propagation (sdy-basic/aggressive/op-priority/user-priority-propagate).

Modules, each beside its Shardy counterpart (shardy/dialect/sdy/transforms/propagation/):

    schedule.py                     the pass's levels (rule file `params: schedule`), `propagate`
    user_priority_propagation.py    user_priority_propagation.cc
    op_priority_propagation.py      op_priority_propagation.cc (heuristics.py: the heuristics as data)
    aggressive_propagation.py       aggressive_propagation.cc (the strategies level)
    basic_propagation.py            basic_propagation.cc: the step and the patterns
    rewrite_driver.py               the greedy rewrite driver basic propagation runs
    propagation_state.py            shardings, rules and notifications of one module
    factor_propagation.py           factor_propagation.h
    basic_factor_propagation.py     basic_factor_propagation.cc
    aggressive_factor_propagation.py aggressive_factor_propagation.cc
    sharding_group_map.py           sharding_group_map.cc
    dataflow.py                     data_flow_utils.cc (data-flow edges)
    call_graph.py                   funcs and calls (func data-flow edges)
    step_memo.py, worklist.py       the memoized step, the driver's worklist
The sharding projection (sharding_projection.cc) is ../sharding_projection.py.
"""
from .basic_propagation import PropagationEngine, basic_propagate
from .factor_propagation import Direction
from .heuristics import PREDICATES, Heuristic, heuristics_from_data
from .propagation_state import PropagationError
from .schedule import Schedule, propagate

__all__ = ["propagate", "Schedule", "PropagationEngine", "PropagationError", "basic_propagate",
           "Direction", "Heuristic", "PREDICATES", "heuristics_from_data"]
