"""Sharding propagation (sdy-basic/aggressive/op-priority/user-priority-propagate)."""
from .engine import (PropagationEngine, PropagationError, Schedule, aggressive_propagate,
                     basic_propagate, op_priority_propagate, propagate, user_priority_propagate)
from .factor_propagation import Direction
from .heuristics import (PREDICATES, Heuristic, default_heuristics,
                         heuristics_from_data)

__all__ = ["propagate", "Schedule", "PropagationEngine", "PropagationError", "basic_propagate",
           "aggressive_propagate", "op_priority_propagate", "user_priority_propagate",
           "Direction", "Heuristic", "PREDICATES",
           "default_heuristics", "heuristics_from_data"]
