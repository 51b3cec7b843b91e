"""The rewrite driver's worklist and what it keeps per op (MLIR's
GreedyPatternRewriteDriver worklist, as Shardy's basic propagation runs it)."""
from __future__ import annotations


class Worklist:
    """LIFO of OpNodes with de-duplication (a pushed node already queued keeps
    its place); a node knows its own position, so no lookups are needed."""

    __slots__ = ("items",)

    def __init__(self, nodes_first_on_top: list):
        """Start with `nodes_first_on_top` (the last pops first)."""
        self.items = nodes_first_on_top  # (None: the place of a removed node)
        for position, node in enumerate(nodes_first_on_top):
            node.queued = position

    def push(self, node) -> None:
        if node.queued >= 0:
            return
        node.queued = len(self.items)
        self.items.append(node)

    def push_all(self, nodes) -> None:
        items = self.items
        for node in nodes:
            if node.queued < 0:
                node.queued = len(items)
                items.append(node)

    def pop(self):
        """The top node, or None when none is left."""
        items = self.items
        while items:
            node = items.pop()
            if node is not None:
                node.queued = -1
                return node
        return None

    def remove(self, node) -> None:
        if node.queued >= 0:
            self.items[node.queued] = None
            node.queued = -1


class OpNode:
    """What the engine keeps about one op while propagating (dropped when the
    op is erased): how it propagates, its step's frame, and whether its last
    step changed nothing."""

    __slots__ = ("op", "kind", "frame", "clean", "clean_by", "watched", "live_at", "directions",
                 "values",
                 "step_key", "queued", "chain", "erased", "plain_user", "structure", "edge",
                 "name")

    # kinds: which pattern propagates the op (see basic_propagation)
    REGISTERED, DATA_FLOW_EDGE, FUNC_EDGE, BARRIER = range(4)

    def __init__(self, op, kind: int, name: str):
        self.op = op
        self.name = name  # its op's name (read once)
        self.kind = kind
        self.frame = False  # the rule of its step, None: none; False: not built
        self.clean = None  # the directions of a step that changed nothing, until one of
        #                    its values' shardings changes, and its strategy:
        self.clean_by = None
        self.watched = False  # registered as a reader of its values' shardings
        self.live_at = -1  # the engine's erasure count when the op was last seen alive
        self.directions = None  # per op priority, its factors' directions (see HeuristicDirections)
        self.values = None  # where its operands' and results' shardings live (shardable values)
        self.step_key = None  # (directions, strategy, the step memo key's part they fix) last used
        self.queued = -1  # its position in the worklist, -1: not queued
        self.chain = None  # itself and its ancestors below the module, pushed together
        self.erased = False
        self.plain_user = None  # whether a use by it notifies just it (see notify_users_modified)
        self.structure = None  # its structure id, once its frame is built (see values.structure_key)
        self.edge = False  # a data-flow edge's EdgeStep, None: no memoized step; False: not built


class EdgeStep:
    """A data-flow edge's step as a registered op's is kept (see
    PropagationEngine.propagate_data_flow_edge_node): its owner, its sources
    and its result, an identity rule, and the same clean / memo state as an OpNode.
    An edge whose owner strips manual axes also keeps its sources (as they
    are) and its owner's view change (`transform`, a dataflow.EdgeTransform):
    its memoized step sees its sharding through it."""

    __slots__ = ("op", "owner", "values", "rule", "num_sources", "alike", "clean", "clean_by",
                 "watched", "step_key", "directions", "sources", "transform", "in_group")

    def __init__(self, op, owner, values: tuple, rule, num_sources: int, alike, sources=None,
                 transform=None, in_group: bool = False):
        self.op = op
        self.owner = owner  # its dataflow.EdgeOwner
        self.values = values  # the shardable values of its sources, then its result
        self.rule = rule
        self.num_sources = num_sources
        self.alike = alike  # the same for edges of one rule and view change: they share a step's static key
        self.sources = sources  # (an owner that strips manual axes) its sources
        self.transform = transform  # ... and its view change, else None
        self.in_group = in_group  # ... and whether one of its values is in a sharding group
        self.clean = None  # as OpNode's
        self.clean_by = None
        self.watched = False
        self.step_key = None
        self.directions = None  # (get_direction, erasures, directions) last asked

    def quiet(self, get_direction, erasures: int, strategy) -> bool:
        """Whether its step is known to change nothing now: its directions in
        this sweep (asked already) allow no factor, or its last step with
        them and `strategy` changed nothing and none of its values changed since."""
        kept = self.directions
        if kept is None or kept[0] is not get_direction or kept[1] != erasures:
            return False
        return self.quiet_with(kept[2], strategy)

    def quiet_with(self, directions: tuple, strategy) -> bool:
        """Whether its step with these directions and `strategy` is known to
        change nothing now (see quiet)."""
        return not any(directions) or (self.clean_by is strategy and self.clean == directions)

