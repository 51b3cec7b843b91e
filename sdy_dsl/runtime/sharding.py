"""The sharding algebra: meshes, axis refs (with sub-axes), dimension and tensor shardings.

Values are immutable dataclasses so they can be cached, hashed and compared.
They are read from and written to MLIR attributes through `codec` (below), which
parses each distinct attribute once: attributes are uniqued by MLIR, so the
attribute object is the cache key.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from jaxlib.mlir import ir


# --------------------------------------------------------------------------- meshes


@dataclass(frozen=True, slots=True)
class MeshAxis:
    name: str
    size: int

    def text(self) -> str:
        return f'"{self.name}"={self.size}'


@dataclass(frozen=True, slots=True)
class Mesh:
    axes: tuple[MeshAxis, ...] = ()
    device_ids: tuple[int, ...] = ()
    _sizes: dict = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_sizes", {a.name: a.size for a in self.axes})

    @property
    def is_maximal(self) -> bool:
        """A maximal mesh has no axes and a single device id."""
        return not self.axes and len(self.device_ids) == 1

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.axes)

    def has_axis(self, name: str) -> bool:
        return name in self._sizes

    def axis_size(self, name: str) -> int:
        return self._sizes[name]

    def axis_index(self, name: str) -> int:
        return self.axis_names.index(name)

    def text(self) -> str:
        """The body printed inside `<...>` (`["x"=2], device_ids=[...]`)."""
        body = "[" + ", ".join(a.text() for a in self.axes) + "]"
        if self.device_ids:
            body += ", device_ids=[" + ", ".join(map(str, self.device_ids)) + "]"
        return body


# --------------------------------------------------------------------------- axes


@dataclass(frozen=True, slots=True, order=False)
class AxisRef:
    """A mesh axis or a sub-axis `"x":(pre_size)size` of it."""

    name: str
    pre_size: int = 1
    sub_size: int | None = None  # None: the full axis

    @property
    def is_sub_axis(self) -> bool:
        return self.sub_size is not None

    def size(self, mesh: Mesh) -> int:
        return self.sub_size if self.sub_size is not None else mesh.axis_size(self.name)

    def next_pre_size(self, mesh: Mesh) -> int:
        return self.pre_size * self.size(mesh)

    def text(self) -> str:
        if self.sub_size is None:
            return f'"{self.name}"'
        return f'"{self.name}":({self.pre_size}){self.sub_size}'

    def full_or_sub(self, mesh: Mesh, pre_size: int, size: int) -> "AxisRef":
        """A ref to [pre_size, pre_size*size) of this axis; the full axis when it spans it."""
        if pre_size == 1 and size == mesh.axis_size(self.name):
            return AxisRef(self.name)
        return AxisRef(self.name, pre_size, size)

    def contains(self, other: "AxisRef", mesh: Mesh) -> bool:
        return (self.name == other.name and self.pre_size <= other.pre_size
                and other.next_pre_size(mesh) <= self.next_pre_size(mesh))

    def prefix_of(self, other: "AxisRef", mesh: Mesh) -> bool:
        """Whether self is a (non-strict) prefix of other: same start, not longer."""
        return (self.name == other.name and self.pre_size == other.pre_size
                and self.size(mesh) <= other.size(mesh))

    def overlaps(self, other: "AxisRef", mesh: Mesh) -> bool:
        # (A full axis overlaps every ref to its axis, as in Shardy: a size-one
        # axis has an empty range, yet "b" overlaps "b".)
        if self.name != other.name:
            return False
        if not self.is_sub_axis or not other.is_sub_axis:
            return True
        return self.pre_size < other.next_pre_size(mesh) and other.pre_size < self.next_pre_size(mesh)

    def can_coexist(self, other: "AxisRef", mesh: Mesh) -> bool:
        """Whether both can appear in one sharding (Shardy's canCoexist): sub-axes
        of one axis must split it compatibly, e.g. "a":(1)2 and "a":(3)2 of a
        6-axis cannot."""
        if self.name != other.name or not self.is_sub_axis or not other.is_sub_axis:
            return True
        min_pre, max_pre = sorted((self.pre_size, other.pre_size))
        min_next, max_next = sorted((self.next_pre_size(mesh), other.next_pre_size(mesh)))
        if min_next > max_pre:  # they overlap
            return min_next % max_pre == 0 and max_pre % min_pre == 0 and max_next % min_next == 0
        return max_pre % min_next == 0

    def can_merge(self, other: "AxisRef", mesh: Mesh) -> bool:
        """Whether other directly follows self in the same axis."""
        return (self.name == other.name and self.is_sub_axis and other.is_sub_axis
                and self.next_pre_size(mesh) == other.pre_size)

    def merge(self, other: "AxisRef", mesh: Mesh) -> "AxisRef":
        return self.full_or_sub(mesh, self.pre_size, self.size(mesh) * other.size(mesh))

    def overlap(self, other: "AxisRef", mesh: Mesh) -> "AxisRef | None":
        """The part both refer to (getOverlap); None when they are disjoint or
        cannot coexist."""
        if self.name != other.name:
            return None
        if not self.is_sub_axis:
            return other
        if not other.is_sub_axis:
            return self
        lo, hi = max(self.pre_size, other.pre_size), min(self.next_pre_size(mesh), other.next_pre_size(mesh))
        if hi <= lo or not self.can_coexist(other, mesh):
            return None
        return AxisRef(self.name, lo, hi // lo)

    def prefix_without_overlap(self, other: "AxisRef", mesh: Mesh) -> "AxisRef | None":
        """The largest prefix of self that does not overlap other
        (getPrefixWithoutOverlap); None when it is empty or they cannot coexist."""
        return self._part_without_overlap(other, mesh, prefix=True)

    def suffix_without_overlap(self, other: "AxisRef", mesh: Mesh) -> "AxisRef | None":
        """The largest suffix of self that does not overlap other
        (getSuffixWithoutOverlap); None when it is empty or they cannot coexist."""
        return self._part_without_overlap(other, mesh, prefix=False)

    def _part_without_overlap(self, other: "AxisRef", mesh: Mesh, prefix: bool) -> "AxisRef | None":
        if self.name != other.name:
            return self
        if not self.can_coexist(other, mesh):
            return None
        if not self.overlaps(other, mesh):
            return self
        # the devices [lo, hi) of self before other starts, or after it ends
        lo, hi = ((self.pre_size, other.pre_size) if prefix
                  else (other.next_pre_size(mesh), self.next_pre_size(mesh)))
        return self.full_or_sub(mesh, lo, hi // lo) if hi > lo else None

    # The order of refs to one axis, shared by both orders below (AxisRefAttr's
    # `<`): by pre-size, then size, the full axis counting as (1, infinite), so
    # "x":(1)2 < "x":(1)4 < "x" < "x":(2)2 < "x":(2)4 < "x":(4)2.
    def _position_in_axis(self) -> tuple:
        return (self.pre_size, math.inf if self.sub_size is None else self.sub_size)

    def order_key(self) -> tuple:
        """AxisRefAttr's `<`: by axis name, then position in the axis."""
        return (self.name, *self._position_in_axis())

    def sort_key(self, mesh: Mesh) -> tuple:
        """Mesh order (getMeshComparator): by the axis's place in the mesh, then position in the axis."""
        return (mesh.axis_index(self.name), *self._position_in_axis())


def axes_size(axes: Iterable[AxisRef], mesh: Mesh) -> int:
    return math.prod(a.size(mesh) for a in axes)


def add_or_merge(axes: list[AxisRef], axis: AxisRef, mesh: Mesh) -> None:
    """Append axis, merged into the last one when it directly follows it (AddAxisOrMergeInserter)."""
    if axes and axes[-1].can_merge(axis, mesh):
        axes[-1] = axes[-1].merge(axis, mesh)
    else:
        axes.append(axis)


def first_overlapping(axis: AxisRef, ordered: Sequence[AxisRef], mesh: Mesh) -> int | None:
    """The index of the first ref of ORDERED (sorted by order_key, no two
    overlapping) that overlaps AXIS (getFirstOverlapping), else None."""
    key = axis.order_key()
    lo, hi = 0, len(ordered)
    while lo < hi:
        mid = (lo + hi) // 2
        if ordered[mid].order_key() < key:
            lo = mid + 1
        else:
            hi = mid
    if lo > 0 and axis.overlaps(ordered[lo - 1], mesh):
        return lo - 1
    if lo < len(ordered) and axis.overlaps(ordered[lo], mesh):
        return lo
    return None


def prefix_without_overlap_all(axis: AxisRef | None, others: Sequence[AxisRef],
                               mesh: Mesh) -> AxisRef | None:
    """AXIS cut to its largest prefix overlapping none of OTHERS (None if empty)."""
    for other in others:
        if axis is None:
            return None
        axis = axis.prefix_without_overlap(other, mesh)
    return axis


STRICT_PREFIX, EQUAL, NOT_A_PREFIX = "strict", "equal", "not"


def axis_list_prefix_status(first: Sequence[AxisRef], second: Sequence[AxisRef],
                            mesh: Mesh) -> str:
    """Whether `first` is a strict prefix of / equal to / not a prefix of `second`."""
    if not first and not second:
        return EQUAL
    if not first:
        return STRICT_PREFIX
    if len(first) > len(second):
        return NOT_A_PREFIX
    last = len(first) - 1
    for i in range(last):
        if first[i] != second[i]:
            return NOT_A_PREFIX
    if len(first) == len(second) and first[last] == second[last]:
        return EQUAL
    if first[last].prefix_of(second[last], mesh):
        return STRICT_PREFIX
    return NOT_A_PREFIX

def truncate_without_overlap(axes: Sequence[AxisRef], others: Sequence[AxisRef], mesh: Mesh):
    """The longest prefix of AXES overlapping none of OTHERS, the last axis
    perhaps cut (AxisListRef::truncateWithoutOverlap); None if nothing overlaps."""
    for i, axis in enumerate(axes):
        prefix = prefix_without_overlap_all(axis, others, mesh)
        if prefix != axis:
            return tuple(axes[:i]) + ((prefix,) if prefix is not None else ())
    return None


def greatest_common_prefix(a: Sequence[AxisRef], b: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The longest common prefix of two axis lists, the last axis perhaps a
    prefix of both (getGreatestCommonPrefix)."""
    out = []
    for x, y in zip(a, b):
        if x == y:
            out.append(x)
            continue
        if x.name == y.name and x.pre_size == y.pre_size:
            out.append(x if x.size(mesh) < y.size(mesh) else y)
        break
    return out


def axis_set_difference(axes: Iterable[AxisRef], minus: Iterable[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The parts of `axes` that no axis of `minus` covers, as (sub-)axes
    (Shardy's getAxisSetDiff): "y" minus "y":(2)2 is "y":(1)2 and "y":(4)2."""
    minus = list(minus)
    out = []
    for axis in axes:
        start, end = axis.pre_size, axis.next_pre_size(mesh)
        if start == end:  # a size-one axis has no range to cut: only the same axis removes it
            if not any(other.name == axis.name for other in minus):
                out.append(axis)
            continue
        cuts = {start, end}
        covered = []
        for other in minus:
            if other.overlaps(axis, mesh):
                lo, hi = max(start, other.pre_size), min(end, other.next_pre_size(mesh))
                cuts.update((lo, hi))
                covered.append((lo, hi))
        points = sorted(cuts)
        for lo, hi in zip(points, points[1:]):
            if not any(c_lo <= lo and hi <= c_hi for c_lo, c_hi in covered):
                out.append(axis.full_or_sub(mesh, lo, hi // lo))
    return out


def sort_and_merge_axes(axes: Iterable[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """Mesh order, with consecutive sub-axes of one axis merged (sortAndMergeAxes)."""
    out: list[AxisRef] = []
    for axis in sorted(axes, key=lambda a: a.sort_key(mesh)):
        add_or_merge(out, axis, mesh)
    return out


def axes_text(axes: Iterable[AxisRef]) -> str:
    return ", ".join(a.text() for a in axes)


# --------------------------------------------------------------------------- shardings


@dataclass(frozen=True, slots=True)
class DimSharding:
    axes: tuple[AxisRef, ...] = ()
    is_closed: bool = True
    priority: int | None = None

    @property
    def is_open(self) -> bool:
        return not self.is_closed

    def text(self) -> str:
        parts = [a.text() for a in self.axes]
        if not self.is_closed:
            parts.append("?")
        out = "{" + ", ".join(parts) + "}"
        if self.priority is not None:
            out += f"p{self.priority}"
        return out

    def size(self, mesh: Mesh) -> int:
        return axes_size(self.axes, mesh)


@dataclass(frozen=True, slots=True)
class TensorSharding:
    """`#sdy.sharding<mesh, [dims], replicated={...}, unreduced={...}>`.

    `mesh_name` is the symbol of an `sdy.mesh`, or None when the mesh is inlined
    (then `inline_mesh` holds it).
    """

    mesh_name: str | None
    dims: tuple[DimSharding, ...] = ()
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    inline_mesh: Mesh | None = None

    @property
    def rank(self) -> int:
        return len(self.dims)

    def mesh_text(self) -> str:
        if self.mesh_name is not None:
            return "@" + self.mesh_name
        return "mesh<" + self.inline_mesh.text() + ">"

    def body_text(self) -> str:
        out = self.mesh_text() + ", [" + ", ".join(d.text() for d in self.dims) + "]"
        if self.replicated:
            out += ", replicated={" + axes_text(self.replicated) + "}"
        if self.unreduced:
            out += ", unreduced={" + axes_text(self.unreduced) + "}"
        return out

    def text(self) -> str:
        return "#sdy.sharding<" + self.body_text() + ">"

    def __str__(self) -> str:
        return self.text()

    # Whole-sharding queries and transforms used by many passes.
    @property
    def is_fully_closed(self) -> bool:
        return all(d.is_closed for d in self.dims)

    @property
    def is_fully_replicated(self) -> bool:
        return all(not d.axes for d in self.dims)

    def closed(self) -> "TensorSharding":
        """All dims closed (priorities kept); `self` when they already are."""
        if all(d.is_closed for d in self.dims):
            return self
        return TensorSharding(self.mesh_name, tuple(d if d.is_closed else DimSharding(d.axes, True, d.priority)
                                                    for d in self.dims),
                              self.replicated, self.unreduced, self.inline_mesh)

    def opened(self) -> "TensorSharding":
        """All dims open (priorities kept); `self` when they already are."""
        if not any(d.is_closed for d in self.dims):
            return self
        return replace(self, dims=tuple(replace(d, is_closed=False) for d in self.dims))

    def with_dim(self, index: int, dim: DimSharding) -> "TensorSharding":
        """The sharding with dimension `index` (negative: from the end) replaced by `dim`."""
        dims = list(self.dims)
        dims[index] = dim
        return replace(self, dims=tuple(dims))

    def without_replicated(self) -> "TensorSharding":
        if not self.replicated:
            return self
        return TensorSharding(self.mesh_name, self.dims, (), self.unreduced, self.inline_mesh)

    def all_axes(self) -> Iterable[AxisRef]:
        for d in self.dims:
            yield from d.axes
        yield from self.replicated
        yield from self.unreduced

    def with_mesh(self, mesh_name: str | None, inline_mesh: Mesh | None = None) -> "TensorSharding":
        if mesh_name == self.mesh_name and inline_mesh == self.inline_mesh:
            return self
        return TensorSharding(mesh_name, self.dims, self.replicated, self.unreduced, inline_mesh)

    def map_axes(self, fn) -> "TensorSharding":
        """Apply `fn(axes: tuple) -> tuple` to every axis list (dims, replicated, unreduced).
        A dim whose axes `fn` returns as they are is kept; built directly, not with
        dataclasses.replace (on hot paths: e.g. every read of a manual computation's edge)."""
        def dim(d: DimSharding) -> DimSharding:
            axes = tuple(fn(d.axes))
            return d if axes is d.axes else DimSharding(axes, d.is_closed, d.priority)
        return TensorSharding(self.mesh_name, tuple(dim(d) for d in self.dims), tuple(fn(self.replicated)),
                              tuple(fn(self.unreduced)), self.inline_mesh)

    def without_priorities_on_empty_closed_dims(self) -> "TensorSharding":
        return replace(self, dims=tuple(
            replace(d, priority=None) if d.is_closed and not d.axes and d.priority is not None else d
            for d in self.dims))

    @staticmethod
    def replicated_like(mesh_name: str | None, rank: int, is_closed: bool = True,
                        inline_mesh: Mesh | None = None) -> "TensorSharding":
        return TensorSharding(mesh_name, tuple(DimSharding((), is_closed) for _ in range(rank)),
                              inline_mesh=inline_mesh)


@dataclass(frozen=True, slots=True)
class ManualAxes:
    axes: tuple[str, ...]

    def text(self) -> str:
        return "{" + ", ".join(f'"{a}"' for a in self.axes) + "}"


# --------------------------------------------------------------------------- parsing

_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<int>-?\d+)|(?P<sym>@[\w$.\-]+|@"[^"]*")'
                    r'|(?P<word>[A-Za-z_][\w.]*)|(?P<punct>[\[\]{}()<>=,:?#]))')


class ShardingSyntaxError(ValueError):
    pass


class _Parser:
    """A small recursive-descent parser of the printed sdy attribute syntax."""

    def __init__(self, text: str):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise ShardingSyntaxError(f"unexpected character in sharding: {text[pos:pos + 20]!r}")
            kind = m.lastgroup
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0

    def peek(self, value=None):
        if self.i >= len(self.tokens):
            return None
        tok = self.tokens[self.i]
        if value is None or tok[1] == value:
            return tok
        return None

    def take(self, value=None, kind=None):
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value) or (kind is not None and tok[0] != kind):
            raise ShardingSyntaxError(f"expected {value or kind}, got {tok[1] if tok else 'end'}")
        self.i += 1
        return tok[1]

    def accept(self, value):
        if self.peek(value):
            self.i += 1
            return True
        return False

    def name(self) -> str:
        return self.take(kind="str")[1:-1]

    def mesh_body(self) -> Mesh:
        # ["x"=2, "y"=4], device_ids=[...]   (inside the angle brackets)
        axes = []
        self.take("[")
        while not self.accept("]"):
            n = self.name()
            self.take("=")
            axes.append(MeshAxis(n, int(self.take(kind="int"))))
            self.accept(",")
        device_ids = []
        if self.accept(","):
            self.take("device_ids")
            self.take("=")
            self.take("[")
            while not self.accept("]"):
                device_ids.append(int(self.take(kind="int")))
                self.accept(",")
        return Mesh(tuple(axes), tuple(device_ids))

    def axis_ref(self) -> AxisRef:
        n = self.name()
        if self.accept(":"):
            self.take("(")
            pre = int(self.take(kind="int"))
            self.take(")")
            size = int(self.take(kind="int"))
            return AxisRef(n, pre, size)
        return AxisRef(n)

    def axis_list(self) -> tuple[AxisRef, ...]:
        self.take("{")
        axes = []
        while not self.accept("}"):
            axes.append(self.axis_ref())
            self.accept(",")
        return tuple(axes)

    def dim(self) -> DimSharding:
        self.take("{")
        axes, closed = [], True
        while not self.accept("}"):
            if self.accept("?"):
                closed = False
            else:
                axes.append(self.axis_ref())
            self.accept(",")
        priority = None
        tok = self.peek()
        if tok and tok[0] == "word" and re.fullmatch(r"p\d+", tok[1]):
            self.i += 1
            priority = int(tok[1][1:])
        return DimSharding(tuple(axes), closed, priority)

    def tensor_body(self) -> TensorSharding:
        # @mesh | mesh<...>, [dims], replicated={...}, unreduced={...}
        tok = self.peek()
        mesh_name, inline = None, None
        if tok and tok[0] == "sym":
            mesh_name = self.take()[1:]
            if mesh_name.startswith('"'):
                mesh_name = mesh_name[1:-1]
        else:
            self.take("mesh")
            self.take("<")
            inline = self.mesh_body()
            self.take(">")
        self.take(",")
        self.take("[")
        dims = []
        while not self.accept("]"):
            dims.append(self.dim())
            self.accept(",")
        replicated, unreduced = (), ()
        while self.accept(","):
            key = self.take(kind="word")
            self.take("=")
            if key == "replicated":
                replicated = self.axis_list()
            elif key == "unreduced":
                unreduced = self.axis_list()
            else:
                raise ShardingSyntaxError(f"unknown sharding field {key!r}")
        return TensorSharding(mesh_name, tuple(dims), replicated, unreduced, inline)


def _strip_prefix(text: str, prefix: str) -> str:
    text = text.strip()
    if text.startswith(prefix):
        text = text[len(prefix):]
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    return text


def parse_tensor_sharding(text: str) -> TensorSharding:
    return _Parser(_strip_prefix(text, "#sdy.sharding")).tensor_body()


def parse_sharding_per_value(text: str) -> tuple[TensorSharding, ...]:
    p = _Parser(_strip_prefix(text, "#sdy.sharding_per_value"))
    p.take("[")
    out = []
    while not p.accept("]"):
        p.take("<")
        out.append(p.tensor_body())
        p.take(">")
        p.accept(",")
    return tuple(out)


def parse_axis_ref(text: str) -> AxisRef:
    """An axis ref from its name, `x`, or a sub-axis, `x:(2)4` (quotes optional)."""
    name, colon, rest = text.partition(":")
    quoted = name if name.startswith('"') else '"' + name + '"'
    p = _Parser(quoted + colon + rest)
    ref = p.axis_ref()
    if p.peek() is not None:
        raise ShardingSyntaxError(f"unexpected text after the axis: {text!r}")
    return ref


def parse_mesh(text: str) -> Mesh:
    return _Parser(_strip_prefix(text, "#sdy.mesh")).mesh_body()


def parse_manual_axes(text: str) -> ManualAxes:
    p = _Parser(_strip_prefix(text, "#sdy<manual_axes"))
    p.take("{")
    axes = []
    while not p.accept("}"):
        axes.append(p.name())
        p.accept(",")
    return ManualAxes(tuple(axes))


# --------------------------------------------------------------------------- codec


class AttrCodec:
    """Reads and writes sdy attributes, parsing each distinct attribute once.

    MLIR uniques attributes, so the attribute object keys the read cache; the
    write cache is keyed by the printed text. Caches belong to one context.
    """

    def __init__(self):
        self._read: dict = {}
        # printed tensor body (`@mesh, [{"x"}, {}]`) -> its sharding: a pass writes
        # new attributes (per-value ones above all) out of the same few bodies, so
        # the next pass reading them parses only the bodies it has not seen
        self._tensor_bodies: dict[str, TensorSharding] = {}
        self._write: dict[str, ir.Attribute] = {}
        # id(sharding) -> (sharding, its body text): writers hand the same
        # sharding objects again and again (kept alive here, so ids stay theirs)
        self._body: dict[int, tuple] = {}
        self._kinds: dict = {}

    def clear(self):
        self._read.clear()
        self._tensor_bodies.clear()
        self._write.clear()
        self._body.clear()
        self._kinds.clear()

    def body_text(self, sharding: TensorSharding) -> str:
        hit = self._body.get(id(sharding))
        if hit is not None and hit[0] is sharding:
            return hit[1]
        text = sharding.body_text()
        self._body[id(sharding)] = (sharding, text)
        return text

    def clear_if_large(self, limit: int = 500_000):
        if (len(self._read) + len(self._tensor_bodies) + len(self._write) + len(self._body)
                + len(self._kinds) > limit):
            self.clear()

    def _cached(self, kind: str, attr: ir.Attribute, parse):
        key = (kind, attr)
        hit = self._read.get(key)
        if hit is None:
            hit = parse(str(attr))
            self._read[key] = hit
        return hit

    def tensor_sharding(self, attr: ir.Attribute) -> TensorSharding:
        return self._cached("t", attr, self._parse_tensor_sharding)

    def sharding_per_value(self, attr: ir.Attribute) -> tuple[TensorSharding, ...]:
        return self._cached("pv", attr, self._parse_sharding_per_value)

    def _tensor_body(self, body: str) -> TensorSharding:
        hit = self._tensor_bodies.get(body)
        if hit is None:
            hit = _Parser(body).tensor_body()
            self._tensor_bodies[body] = hit
        return hit

    def _parse_tensor_sharding(self, text: str) -> TensorSharding:
        return self._tensor_body(_strip_prefix(text, "#sdy.sharding"))

    def _parse_sharding_per_value(self, text: str) -> tuple[TensorSharding, ...]:
        # MLIR prints `#sdy.sharding_per_value<[<BODY>, <BODY>]>`; a body holds no
        # angle bracket unless it has an inline mesh (`mesh<...>`) or a quoted mesh
        # name (`@"..."`), which the whole-text parser reads instead.
        if "mesh<" in text or '@"' in text:
            return parse_sharding_per_value(text)
        listed = _strip_prefix(text, "#sdy.sharding_per_value")
        if not (listed.startswith("[<") and listed.endswith(">]")):
            return parse_sharding_per_value(text)
        try:
            return tuple(self._tensor_body(body) for body in listed[2:-2].split(">, <"))
        except ShardingSyntaxError:  # (an axis name holding ">, <": split wrongly)
            return parse_sharding_per_value(text)

    def mesh(self, attr: ir.Attribute) -> Mesh:
        return self._cached("m", attr, parse_mesh)

    def manual_axes(self, attr: ir.Attribute) -> ManualAxes:
        return self._cached("ma", attr, parse_manual_axes)

    def sharding_kind(self, attr: ir.Attribute) -> str | None:
        """"single" for a TensorShardingAttr, "per_value" for a
        TensorShardingPerValueAttr, else None (cached per attribute)."""
        try:
            return self._kinds[attr]
        except KeyError:
            from jaxlib.mlir.dialects import sdy
            kind = ("single" if sdy.TensorShardingAttr.isinstance(attr)
                    else "per_value" if sdy.TensorShardingPerValueAttr.isinstance(attr) else None)
            self._kinds[attr] = kind
            return kind

    def attr(self, text: str) -> ir.Attribute:
        hit = self._write.get(text)
        if hit is None:
            hit = ir.Attribute.parse(text)
            self._write[text] = hit
        return hit

    def tensor_sharding_attr(self, sharding: TensorSharding) -> ir.Attribute:
        return self.attr("#sdy.sharding<" + self.body_text(sharding) + ">")

    def sharding_per_value_attr(self, shardings: Iterable[TensorSharding]) -> ir.Attribute:
        return self.attr("#sdy.sharding_per_value<[" + ", ".join(
            ["<" + self.body_text(s) + ">" for s in shardings]) + "]>")

    def mesh_attr(self, mesh: Mesh) -> ir.Attribute:
        return self.attr("#sdy.mesh<" + mesh.text() + ">")

    def manual_axes_attr(self, axes: ManualAxes) -> ir.Attribute:
        return self.attr("#sdy<manual_axes" + axes.text() + ">")


codec = AttrCodec()
