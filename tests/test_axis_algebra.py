"""The axis / sub-axis algebra, pinned fact by fact.

Axis refs are `"x"` (a whole mesh axis) or `"x":(p)k` (the sub-axis of size k
whose devices step by p). The expected results below are the behaviour of
Shardy's AxisRefAttr, getAxisSetDiff, sortAndMergeAxes, AddAxisOrMergeInserter
and AxisListRef (its C++ unit tests' cases, restated here as inputs and
outputs), plus the properties the algebra must keep (hypothesis).
The algebra lives in sdy_dsl/runtime/sharding.py (AxisRef's methods and the
axis-list functions beside it); every pass uses it from there.
"""
from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdy_dsl.runtime import collectives, explicit_reshards_util
from sdy_dsl.runtime.sharding import (EQUAL, NOT_A_PREFIX, STRICT_PREFIX, AxisRef, Mesh, MeshAxis, add_or_merge,
                                      axes_size, axis_list_prefix_status, axis_set_difference, first_overlapping,
                                      greatest_common_prefix, sort_and_merge_axes, truncate_without_overlap)

_AXIS = re.compile(r'(\w+)(?::\((\d+)\)(\d+))?$')


def A(text: str) -> AxisRef:
    """`x` or `x:(2)4`."""
    m = _AXIS.match(text)
    return AxisRef(m[1]) if m[2] is None else AxisRef(m[1], int(m[2]), int(m[3]))


def L(text: str) -> list[AxisRef]:
    """`x, y:(1)2` -> [A('x'), A('y:(1)2')]."""
    return [A(t.strip()) for t in text.split(",") if t.strip()]


def T(axes) -> str:
    return ", ".join("None" if a is None else a.text().replace('"', "") for a in axes)


def mesh(**sizes: int) -> Mesh:
    return Mesh(tuple(MeshAxis(n, s) for n, s in sizes.items()))


# The mesh most facts use: large enough for every sub-axis below.
M = mesh(x=16, y=4, z=4)


# --------------------------------------------------------------------------- contains / prefix / suffix


@pytest.mark.parametrize("big,small", [("x", "x:(2)4"), ("x:(1)4", "x:(1)2"), ("x:(2)4", "x:(4)2"),
                                       ("x:(1)8", "x:(2)2")])
def test_strictly_contains(big, small):
    assert A(big).contains(A(small), M)
    assert not A(small).contains(A(big), M)


@pytest.mark.parametrize("a", ["x", "x:(1)4"])
def test_an_axis_contains_itself(a):
    assert A(a).contains(A(a), M)


@pytest.mark.parametrize("a,b", [("x", "y"), ("x", "y:(1)2"), ("x:(1)4", "x:(4)2"), ("x:(1)4", "x:(2)4")])
def test_does_not_contain(a, b):
    assert not A(a).contains(A(b), M)
    assert not A(b).contains(A(a), M)


@pytest.mark.parametrize("short,long", [("x:(1)4", "x"), ("x:(1)2", "x:(1)4"), ("x:(2)2", "x:(2)8")])
def test_strict_prefix(short, long):
    assert A(short).prefix_of(A(long), M)
    assert not A(long).prefix_of(A(short), M)


@pytest.mark.parametrize("a,b", [("x", "y"), ("x:(1)2", "y"), ("x:(1)4", "x:(4)2"), ("x:(1)4", "x:(2)4"),
                                 # a suffix is not a prefix
                                 ("x:(8)2", "x")])
def test_not_a_prefix(a, b):
    assert not A(a).prefix_of(A(b), M)
    assert not A(b).prefix_of(A(a), M)


@pytest.mark.parametrize("a", ["x", "x:(2)4"])
def test_an_axis_is_its_own_prefix(a):
    assert A(a).prefix_of(A(a), M)


# --------------------------------------------------------------------------- overlap and coexistence


@pytest.mark.parametrize("a,b,expected", [
    ("x", "x", True), ("x:(2)2", "x:(2)2", True), ("x:(1)4", "x:(1)2", True),
    ("x", "x:(2)4", True), ("x:(1)4", "x:(2)4", True), ("x:(2)8", "x:(4)2", True),
    ("x", "y", False), ("x", "y:(1)2", False), ("x:(1)4", "x:(4)2", False), ("x:(1)2", "x:(4)2", False),
])
def test_overlaps(a, b, expected):
    assert A(a).overlaps(A(b), M) is expected
    assert A(b).overlaps(A(a), M) is expected


def test_a_size_one_axis_overlaps_itself_and_nothing_else():
    # Its device range is empty, yet Shardy treats the full axis as overlapping itself.
    m = mesh(b=1, c=2)
    assert A("b").overlaps(A("b"), m)
    assert not A("b").overlaps(A("c"), m)


@pytest.mark.parametrize("a,b,expected", [
    ("x", "y", True), ("x", "y:(2)2", True), ("x", "x", True), ("x", "x:(2)2", True),
    ("x:(2)2", "x:(2)2", True), ("x:(1)2", "x:(1)4", True), ("x:(1)2", "x:(2)4", True),
    ("x:(1)2", "x:(6)2", True), ("x:(1)4", "x:(2)2", True), ("x:(1)4", "x:(2)4", True),
    # sub-axes that split one axis incompatibly (as 2*3 and 3*2 of a 6)
    ("x:(1)2", "x:(1)3", False), ("x:(1)2", "x:(3)2", False), ("x:(1)3", "x:(2)3", False),
])
def test_can_coexist(a, b, expected):
    m = mesh(x=24)
    assert A(a).can_coexist(A(b), m) is expected
    assert A(b).can_coexist(A(a), m) is expected


@pytest.mark.parametrize("small,large", [
    ("x", "x"), ("x:(1)4", "x"), ("x:(4)8", "x"), ("x:(2)2", "x:(2)2"), ("x:(1)2", "x:(1)4"),
    ("x:(2)2", "x:(1)4"), ("x:(2)2", "x:(1)8")])
def test_overlap_of_a_contained_axis_is_that_axis(small, large):
    m = mesh(x=32)
    assert A(small).overlap(A(large), m) == A(small)
    assert A(large).overlap(A(small), m) == A(small)


@pytest.mark.parametrize("a,b,expected", [("x:(1)4", "x:(2)4", "x:(2)2"), ("x:(4)4", "x:(2)4", "x:(4)2")])
def test_overlap_of_crossing_sub_axes(a, b, expected):
    assert A(a).overlap(A(b), M) == A(expected)
    assert A(b).overlap(A(a), M) == A(expected)


@pytest.mark.parametrize("a,b", [("x", "y"), ("x", "y:(1)2"), ("x:(1)4", "x:(4)2"), ("x:(1)2", "x:(4)2"),
                                 # cannot coexist
                                 ("x:(1)2", "x:(3)2"), ("x:(1)3", "x:(2)3"), ("x:(2)3", "x:(3)2")])
def test_no_overlap(a, b):
    m = mesh(x=24, y=4)
    assert A(a).overlap(A(b), m) is None
    assert A(b).overlap(A(a), m) is None


# --------------------------------------------------------------------------- prefix / suffix without overlap


@pytest.mark.parametrize("a,b,expected", [
    # the same start: nothing before the overlap
    ("x", "x", None), ("x:(2)2", "x:(2)2", None), ("x:(1)4", "x:(1)2", None), ("x:(1)2", "x:(1)4", None),
    ("x:(2)4", "x", None), ("x", "x:(2)4", "x:(1)2"),
    ("x:(2)4", "x:(1)4", None), ("x:(1)4", "x:(2)4", "x:(1)2"),
    ("x:(4)2", "x:(2)8", None), ("x:(2)8", "x:(4)2", "x:(2)2"),
    # no overlap: the whole axis
    ("x", "y", "x"), ("y", "x", "y"), ("x", "y:(1)2", "x"), ("y:(1)2", "x", "y:(1)2"),
    ("x:(1)4", "x:(4)2", "x:(1)4"), ("x:(4)2", "x:(1)4", "x:(4)2"),
    ("x:(1)2", "x:(4)2", "x:(1)2"), ("x:(4)2", "x:(1)2", "x:(4)2"),
])
def test_prefix_without_overlap(a, b, expected):
    assert A(a).prefix_without_overlap(A(b), M) == (None if expected is None else A(expected))


@pytest.mark.parametrize("a,b", [("x:(1)2", "x:(3)2"), ("x:(1)3", "x:(2)3"), ("x:(2)3", "x:(3)2")])
def test_prefix_without_overlap_of_axes_that_cannot_coexist_is_none(a, b):
    m = mesh(x=24)
    assert A(a).prefix_without_overlap(A(b), m) is None
    assert A(b).prefix_without_overlap(A(a), m) is None


@pytest.mark.parametrize("a,b,expected", [
    ("x", "x", None), ("x:(2)2", "x:(2)2", None), ("x:(1)4", "x:(2)2", None), ("x:(2)2", "x:(1)4", None),
    ("x:(2)4", "x", None), ("x", "x:(2)4", "x:(8)2"),
    ("x:(1)4", "x:(2)4", None), ("x:(2)4", "x:(1)4", "x:(4)2"),
    ("x:(4)2", "x:(2)8", None), ("x:(2)8", "x:(4)2", "x:(8)2"),
    ("x", "y", "x"), ("x", "y:(1)2", "x"), ("y:(1)2", "x", "y:(1)2"),
    ("x:(1)4", "x:(4)2", "x:(1)4"), ("x:(4)2", "x:(1)4", "x:(4)2"), ("x:(1)2", "x:(4)2", "x:(1)2"),
])
def test_suffix_without_overlap(a, b, expected):
    assert A(a).suffix_without_overlap(A(b), M) == (None if expected is None else A(expected))


@pytest.mark.parametrize("a,b", [("x:(1)3", "x:(2)3"), ("x:(3)2", "x:(1)2")])
def test_suffix_without_overlap_of_axes_that_cannot_coexist_is_none(a, b):
    m = mesh(x=24)
    assert A(a).suffix_without_overlap(A(b), m) is None
    assert A(b).suffix_without_overlap(A(a), m) is None


# --------------------------------------------------------------------------- merge


@pytest.mark.parametrize("a,b", [("x:(1)4", "x:(4)2"), ("x:(2)2", "x:(4)4")])
def test_can_merge_only_in_device_order(a, b):
    assert A(a).can_merge(A(b), M)
    assert not A(b).can_merge(A(a), M)


@pytest.mark.parametrize("a,b", [("x", "x"), ("x:(1)2", "x:(1)2"), ("x", "y"), ("x:(1)2", "y:(2)2"),
                                 ("x", "x:(4)2"), ("x:(1)2", "x:(4)2")])
def test_cannot_merge(a, b):
    assert not A(a).can_merge(A(b), M)


@pytest.mark.parametrize("a,b,expected", [("x:(1)4", "x:(4)2", "x:(1)8"), ("x:(2)2", "x:(4)4", "x:(2)8"),
                                          # spanning the whole axis: the full axis
                                          ("x:(1)8", "x:(8)2", "x")])
def test_merge(a, b, expected):
    assert A(a).merge(A(b), M) == A(expected)


@pytest.mark.parametrize("start,added,expected", [
    ("a:(1)2", ["c:(4)2"], "a:(1)2, c:(4)2"),
    ("a:(1)2", ["a:(2)2"], "a:(1)4"),
    ("", ["c", "d"], "c, d"),
    ("", ["b:(2)2", "b:(4)2", "b:(8)2"], "b:(2)8"),
    # only the last axis merges: a sub-axis that followed an earlier one stays apart
    ("a:(1)2, b", ["a:(2)2"], "a:(1)2, b, a:(2)2"),
    # merged up to the whole axis
    ("a:(1)4", ["a:(4)2"], "a"),
])
def test_add_or_merge(start, added, expected):
    m = mesh(a=8, b=16, c=8, d=8)
    axes = L(start)
    for axis in added:
        add_or_merge(axes, A(axis), m)
    assert T(axes) == expected


# --------------------------------------------------------------------------- order


@pytest.mark.parametrize("lo,hi", [
    ("x", "y"), ("x:(1)4", "y:(2)4"), ("x", "y:(2)4"), ("x:(1)4", "y"),
    # within one axis: by device position, a sub-axis from 1 before the full axis before the rest
    ("x:(1)2", "x:(2)2"), ("x:(1)4", "x:(2)4"), ("x:(1)4", "x:(1)8"), ("x:(1)4", "x"),
    ("x", "x:(2)2"), ("x:(1)4", "x:(2)2"), ("x:(2)2", "x:(4)2"), ("x:(2)2", "x:(2)4"),
])
def test_axis_order(lo, hi):
    assert A(lo).order_key() < A(hi).order_key()
    assert not A(hi).order_key() < A(lo).order_key()
    assert not A(lo).order_key() < A(lo).order_key()


def test_mesh_order_follows_the_mesh_not_the_names():
    m = mesh(z=2, y=4, x=16)
    axes = L("x:(2)2, y, x:(1)2, z, x:(4)4")
    assert T(sorted(axes, key=lambda a: a.sort_key(m))) == "z, y, x:(1)2, x:(2)2, x:(4)4"
    # ... and within one axis it is the name order's
    within = L("x:(4)2, x, x:(2)2, x:(1)2")
    assert T(sorted(within, key=lambda a: a.sort_key(M))) == "x:(1)2, x, x:(2)2, x:(4)2"


def test_axis_list_order_is_size_first():
    # AxisListRef `<`: fewer axes first, then axis by axis
    key = explicit_reshards_util._axes_list_key
    assert key(L("a, b")) < key(L("a, c"))
    assert key(L("a, b")) < key(L("b, c"))
    assert key(L("a, b")) < key(L("b, a"))
    assert key(L("a, b:(1)2")) < key(L("a, b"))
    assert key(L("a, c")) < key(L("a, b, c"))
    assert key([]) < key(L("a"))
    assert not key(L("a, c")) < key(L("a, c"))


# --------------------------------------------------------------------------- lists of axes


@pytest.mark.parametrize("axes,minus,expected", [
    ("", "c, d", ""),
    ("b, a", "", "b, a"),
    ("a, b:(1)2", "b:(1)2, a", ""),
    ("b, a", "c, d:(1)2", "b, a"),
    ("b, a", "b, d", "a"),
    ("b, a:(1)4", "a, b:(2)2", "b:(1)2"),
    ("a:(2)4", "a:(1)4", "a:(4)2"),
    ("b:(1)2, a", "a:(2)2, b:(2)2", "b:(1)2, a:(1)2, a:(4)2"),
    ("a", "a:(1)2, a:(4)2", "a:(2)2"),
    # a size-one axis: only the same axis removes it
    ("e, a", "a", "e"),
    ("e, a", "e", "a"),
])
def test_axis_set_difference(axes, minus, expected):
    m = mesh(a=8, b=4, c=2, d=4, e=1)
    assert T(axis_set_difference(L(axes), L(minus), m)) == expected


def test_sort_and_merge_axes_in_any_input_order():
    m = mesh(a=8, b=8, c=8, d=8)
    axes = L("a:(1)2, a:(4)2, b:(1)2, b:(2)2, b:(4)2, c, d:(2)2, d:(4)2")
    for order in itertools.islice(itertools.permutations(axes), 0, None, 997):
        assert T(sort_and_merge_axes(order, m)) == "a:(1)2, a:(4)2, b, c, d:(2)4"


def test_sort_and_merge_axes_keeps_the_mesh_order():
    m = mesh(y=4, x=8)
    assert T(sort_and_merge_axes(L("x:(2)4, y:(2)2, x:(1)2"), m)) == "y:(2)2, x"


@pytest.mark.parametrize("axes,against,expected", [
    ("a, b, c, d, e", "c, e, f", "a, b"),
    ("a, b, c, d, e", "f, e, c", "a, b"),
    ("a, b", "a, b", ""),
    ("a", "a, b", ""),
    ("a, b", "a", ""),
    ("a, b", "b", "a"),
    ("a, b", "a:(4)2", "a:(1)4"),
    ("a", "a:(4)2", "a:(1)4"),
    ("a, b", "b:(4)2", "a, b:(1)4"),
])
def test_truncate_without_overlap(axes, against, expected):
    m = mesh(a=8, b=8, c=8, d=8, e=8, f=8)
    assert T(truncate_without_overlap(L(axes), L(against), m)) == expected


@pytest.mark.parametrize("axes,against", [("a, b", "c"), ("", ""), ("", "a"), ("a", "")])
def test_truncate_without_overlap_is_none_when_nothing_overlaps(axes, against):
    m = mesh(a=8, b=8, c=8)
    assert truncate_without_overlap(L(axes), L(against), m) is None


@pytest.mark.parametrize("a,b,expected", [
    ("x", "y", ""), ("x:(1)2", "x:(2)4", ""), ("x:(1)2", "y:(1)2", ""),
    ("x", "x", "x"), ("x:(2)4", "x:(2)4", "x:(2)4"),
    ("x:(1)4", "x", "x:(1)4"), ("x:(1)2", "x:(1)4", "x:(1)2"), ("x:(2)4", "x:(2)8", "x:(2)4"),
    # lists: the common prefix stops at the first axis that differs
    ("y, x:(1)2, z", "y, x, z", "y, x:(1)2"), ("y, z", "y, x", "y"),
])
def test_greatest_common_prefix(a, b, expected):
    assert T(greatest_common_prefix(L(a), L(b), M)) == expected
    assert T(greatest_common_prefix(L(b), L(a), M)) == expected


STRICT, NOT = STRICT_PREFIX, NOT_A_PREFIX


@pytest.mark.parametrize("first,second,expected", [
    ("", "", EQUAL), ("", "x", STRICT), ("x", "", NOT),
    ("x", "x, y", STRICT), ("x, y", "x", NOT), ("x, y", "x, y", EQUAL),
    ("x:(1)2", "x", STRICT), ("x:(1)2", "x:(2)2", NOT), ("x, y:(1)2", "x, y", STRICT),
    ("x:(1)2, y", "x, y", NOT), ("x:(2)2", "x:(2)4", STRICT), ("x:(2)2", "x:(1)4", NOT),
])
def test_axis_list_prefix_status(first, second, expected):
    assert axis_list_prefix_status(L(first), L(second), M) == expected


def test_first_overlapping():
    m = mesh(x=2, y=128, z=4, a=2)
    ordered = L("x, y:(1)2, y:(4)4, y:(64)2, z:(2)2")
    expected = {None: ["a", "a:(1)2", "y:(2)2", "y:(16)4"], 0: ["x", "x:(1)2"],
                1: ["y", "y:(1)2", "y:(1)4", "y:(1)32"], 2: ["y:(2)4", "y:(2)16", "y:(4)2", "y:(8)2"],
                3: ["y:(32)4"]}
    for index, axes in expected.items():
        for axis in axes:
            assert first_overlapping(A(axis), ordered, m) == index, axis


@pytest.mark.parametrize("axes,other,expected", [
    # a whole axis split around a sub-axis of the other sharding
    ("x", "x:(2)2", "x:(1)2, x:(2)2, x:(4)4"),
    ("x:(1)4", "x:(2)4", "x:(1)2, x:(2)2"),
    ("x:(2)8", "x:(1)4", "x:(2)2, x:(4)4"),
    # contained or disjoint: unchanged
    ("x:(2)2", "x", "x:(2)2"), ("y, x:(1)2", "x:(4)2", "y, x:(1)2"),
    # split around two sub-axes at once
    ("x", "x:(2)2, x:(8)2", "x:(1)2, x:(2)2, x:(4)2, x:(8)2"),
])
def test_align_axes(axes, other, expected):
    aligned = L(axes)
    collectives.align_axes(aligned, L(other), M)
    assert T(aligned) == expected


@pytest.mark.parametrize("axis,capacity,expected", [
    ("x", 2, ("x:(1)2", "x:(2)8", 1)), ("x", 16, ("x", None, 1)), ("x", 32, ("x", None, 2)),
    ("x:(2)4", 2, ("x:(2)2", "x:(4)2", 1)), ("x", 3, (None, None, 3)), ("x", 1, (None, None, 1)),
])
def test_within_capacity(axis, capacity, expected):
    got = collectives.within_capacity(A(axis), capacity, M)
    want = tuple(A(e) if isinstance(e, str) else e for e in expected)
    assert got == want


def test_sizes_and_full_or_sub():
    m = mesh(x=8, y=4, b=1)
    assert axes_size(L("x, y:(1)2, b"), m) == 16
    assert A("x").full_or_sub(m, 1, 8) == A("x")
    assert A("x").full_or_sub(m, 1, 4) == A("x:(1)4")
    assert A("x").full_or_sub(m, 2, 4) == A("x:(2)4")


# --------------------------------------------------------------------------- properties


def _axis_of(size_log: int):
    """A strategy of refs to one axis "x" of size 2**size_log (full or sub)."""
    full = st.just(AxisRef("x"))
    sub = st.tuples(st.integers(0, size_log), st.integers(0, size_log)).filter(
        lambda t: t[0] + t[1] <= size_log and t[1] >= 1).map(lambda t: AxisRef("x", 2 ** t[0], 2 ** t[1]))
    return st.one_of(full, sub).filter(
        lambda a: not (a.is_sub_axis and a.pre_size == 1 and a.sub_size == 2 ** size_log))


SIZE_LOG = 5
PM = mesh(x=2 ** SIZE_LOG, y=4, z=2)
one_axis = _axis_of(SIZE_LOG)


@st.composite
def disjoint_axes(draw):
    """Non-overlapping refs to PM's axes (pieces of a random split of each axis)."""
    out = []
    for axis in PM.axes:
        log = axis.size.bit_length() - 1
        cuts = sorted(draw(st.sets(st.integers(1, log - 1), max_size=3))) if log > 1 else []
        bounds = [1, *[2 ** c for c in cuts], axis.size]
        for lo, hi in zip(bounds, bounds[1:]):
            if draw(st.booleans()):
                out.append(AxisRef(axis.name).full_or_sub(PM, lo, hi // lo))
    return draw(st.permutations(out))


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@FAST
@given(one_axis, one_axis)
def test_merge_then_split_is_identity(a, b):
    if not a.can_merge(b, PM):
        return
    merged = a.merge(b, PM)
    assert merged.size(PM) == a.size(PM) * b.size(PM)
    assert merged.prefix_without_overlap(b, PM) == a
    assert merged.suffix_without_overlap(a, PM) == b


@FAST
@given(one_axis, one_axis)
def test_prefix_and_suffix_without_overlap_stay_inside_and_apart(a, b):
    p = a.prefix_without_overlap(b, PM)
    if p is not None:
        assert p.prefix_of(a, PM) and not p.overlaps(b, PM)
        # the largest such prefix: it ends where b starts (or is all of a)
        assert p == a or p.next_pre_size(PM) == b.pre_size
    s = a.suffix_without_overlap(b, PM)
    if s is not None:
        assert a.contains(s, PM) and not s.overlaps(b, PM)
        assert s.next_pre_size(PM) == a.next_pre_size(PM)
        assert s == a or s.pre_size == b.next_pre_size(PM)


@FAST
@given(one_axis, one_axis)
def test_relations_are_consistent(a, b):
    assert a.overlaps(b, PM) == b.overlaps(a, PM)
    assert a.can_coexist(b, PM) == b.can_coexist(a, PM)
    if a.contains(b, PM):
        assert a.overlaps(b, PM)
    if a.prefix_of(b, PM):
        assert b.contains(a, PM)
    o = a.overlap(b, PM)
    assert (o is not None) == a.overlaps(b, PM)
    if o is not None:
        assert a.contains(o, PM) and b.contains(o, PM)
    # PM's axes are in name order, so the two orders agree
    assert (a.order_key() < b.order_key()) == (a.sort_key(PM) < b.sort_key(PM))


@FAST
@given(disjoint_axes(), disjoint_axes())
def test_a_difference_never_overlaps_what_it_removes(axes, minus):
    diff = axis_set_difference(axes, minus, PM)
    assert not any(d.overlaps(m, PM) for d in diff for m in minus)
    # ... and keeps every device of `axes` that `minus` does not cover
    covered = sort_and_merge_axes([o for a in axes for m in minus
                                   if (o := a.overlap(m, PM)) is not None], PM)
    assert axes_size(diff, PM) * axes_size(covered, PM) == axes_size(axes, PM)
    assert all(any(a.contains(d, PM) for a in axes) for d in diff)
    assert axis_set_difference(axes, [], PM) == list(axes)


@FAST
@given(disjoint_axes(), st.randoms(use_true_random=False))
def test_sort_and_merge_is_idempotent_and_order_independent(axes, rng):
    merged = sort_and_merge_axes(axes, PM)
    assert sort_and_merge_axes(merged, PM) == merged
    shuffled = list(axes)
    rng.shuffle(shuffled)
    assert sort_and_merge_axes(shuffled, PM) == merged
    assert axes_size(merged, PM) == axes_size(axes, PM)
    assert not any(x.can_merge(y, PM) for x, y in zip(merged, merged[1:]))
    assert merged == sorted(merged, key=lambda a: a.sort_key(PM))


@FAST
@given(disjoint_axes(), disjoint_axes())
def test_truncate_without_overlap_leaves_no_overlap(axes, against):
    cut = truncate_without_overlap(axes, against, PM)
    overlapping = any(a.overlaps(b, PM) for a in axes for b in against)
    assert (cut is not None) == overlapping
    if cut is not None:
        assert not any(a.overlaps(b, PM) for a in cut for b in against)
        # a prefix of `axes`, the last axis kept perhaps only in part
        assert all(c == a or (i == len(cut) - 1 and c.prefix_of(a, PM))
                   for i, (c, a) in enumerate(zip(cut, axes)))


@FAST
@given(disjoint_axes())
def test_add_or_merge_of_the_pieces_of_an_axis_rebuilds_it(axes):
    pieces = sorted(axes, key=lambda a: a.sort_key(PM))
    built: list = []
    for axis in pieces:
        add_or_merge(built, axis, PM)
    assert built == sort_and_merge_axes(axes, PM)
