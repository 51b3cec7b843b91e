"""From one sharding to another by collectives (Shardy's reshard-to-collectives).

`reshard_steps(in_sharding, out_sharding, mesh, shape)` returns the chain of
collectives that turns a tensor sharded `in_sharding` into one sharded
`out_sharding` (both on `mesh`, dims closed): each step an `all_slice`,
`collective_permute`, `all_to_all` or `all_gather` with its axes and the
sharding after it. Nothing here touches the IR; the pass's hook
(rules/export/reshard_to_collectives.py) creates the ops, and `sdy-dsl cost`
prices the same steps.

The algorithm keeps three views of the tensor's current state, per dimension:
`ins` (current axes beyond the common prefix with the target), `outs` (target
axes beyond that prefix) and `cur` (all current axes); each collective shrinks
`ins`/`outs`, and the chain ends when both are empty. Sub-axes are first split
so that any two overlapping axes of the two shardings are equal.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .sharding import (AxisRef, DimSharding, Mesh, TensorSharding, add_or_merge, axes_size, axes_text,
                       first_overlapping)
from .vocabulary import Vocabulary

INF = float("inf")


# --------------------------------------------------------------------------- sub-axis alignment


def align_axes(axes: list, ordered_other: Sequence[AxisRef], mesh: Mesh) -> None:
    """Split each axis of AXES that overlaps, without being contained in, an
    axis of ORDERED_OTHER into its non-overlapping prefix, the overlap and the
    suffix (in place)."""
    i = 0
    while i < len(axes):
        axis = axes[i]
        j = first_overlapping(axis, ordered_other, mesh)
        advanced = False
        while (j is not None and j < len(ordered_other) and ordered_other[j].can_coexist(axis, mesh)
               and not ordered_other[j].contains(axis, mesh) and ordered_other[j].overlaps(axis, mesh)):
            other = ordered_other[j]
            del axes[i]
            prefix = axis.prefix_without_overlap(other, mesh)
            if prefix is not None:
                axes.insert(i, prefix)
                i += 1
            axes.insert(i, axis.overlap(other, mesh))
            i += 1
            suffix = axis.suffix_without_overlap(other, mesh)
            if suffix is None:
                advanced = True
                break
            axes.insert(i, suffix)
            axis, j, advanced = suffix, j + 1, False
        if not advanced:
            i += 1


def align_per_dim(axes_per_dim: list, ordered_other: Sequence[AxisRef], mesh: Mesh) -> None:
    if not ordered_other:
        return
    for axes in axes_per_dim:
        align_axes(axes, ordered_other, mesh)


def ordered(axes_per_dim) -> list:
    return sorted((a for axes in axes_per_dim for a in axes), key=AxisRef.order_key)


def _divisible(a: int, b: int) -> bool:
    return a % b == 0 or b % a == 0


def within_capacity(axis: AxisRef, capacity: int, mesh: Mesh):
    """(the part of AXIS that fits CAPACITY or None, the rest or None, the capacity left)."""
    size = axis.size(mesh)
    if capacity <= 1 or not _divisible(size, capacity):
        return None, None, capacity
    if capacity >= size:
        return axis, None, capacity // size
    within = AxisRef(axis.name, axis.pre_size, capacity)
    return within, AxisRef(axis.name, within.pre_size * capacity, size // capacity), 1


# --------------------------------------------------------------------------- the chain


@dataclass(frozen=True)
class Step:
    """One collective: KIND is all_slice / all_gather (AXES: one list per dim),
    all_to_all (AXES: the moved axes, SRC_DIM -> TGT_DIM) or collective_permute."""
    kind: str
    sharding: TensorSharding  # after the step
    axes: tuple = ()
    src_dim: int = -1
    tgt_dim: int = -1


@dataclass
class _State:
    mesh: Mesh
    shape: tuple
    mesh_ref: tuple  # (mesh_name, inline_mesh) now
    out_mesh_ref: tuple
    unreduced: tuple
    ins: list
    outs: list
    cur: list
    steps: list = field(default_factory=list)


class CollectiveChain:
    """Shardy's CollectiveInserter, step for step (see the module docstring).
    Tunable (rules/export/reshard_to_collectives.yaml): the order of a round's
    steps (`step_order`) and when to permute (`permute`). The state machine is
    written for Shardy's (the defaults): a tuned chain runs up to four rounds,
    is checked, and else gathers what differs and slices it (_gather_then_slice)."""

    # The steps of a round, by the names the `step-order` param uses.
    STEPS: Vocabulary[Callable] = Vocabulary("collective step", name="collective-step")
    STEPS.register("all-slice", lambda chain: chain.try_all_slice())
    STEPS.register("collective-permute", lambda chain: chain.try_collective_permute())
    STEPS.register("all-to-all", lambda chain: (chain.try_all_to_alls(False), chain.try_all_to_alls(True)))
    STEPS.register("all-gather", lambda chain: chain.try_all_gather())
    REFERENCE_STEP_ORDER = ("all-slice", "collective-permute", "all-to-all", "all-gather")
    # When a collective-permute step permutes shards (it always changes a device order that differs).
    PERMUTE_POLICIES: Vocabulary[Callable] = Vocabulary("permute policy", name="permute-policy")
    PERMUTE_POLICIES.register("when-shards-can-swap", lambda chain: chain._should_permute())  # Shardy's
    PERMUTE_POLICIES.register("never", lambda chain: False)
    REFERENCE_ROUNDS, TUNED_ROUNDS = 2, 4

    def __init__(self, in_sharding: TensorSharding, out_sharding: TensorSharding, mesh: Mesh,
                 shape: Sequence[int], step_order: Sequence[str] = REFERENCE_STEP_ORDER,
                 permute: str = "when-shards-can-swap"):
        self.step_order = tuple(step_order)
        self.permute = permute
        self.mesh = mesh
        self.shape = tuple(shape)
        self.mesh_ref = (in_sharding.mesh_name, in_sharding.inline_mesh)
        self.out_mesh_ref = (out_sharding.mesh_name, out_sharding.inline_mesh)
        self.unreduced = out_sharding.unreduced
        self.ins = [list(d.axes) for d in in_sharding.dims]
        self.outs = [list(d.axes) for d in out_sharding.dims]
        self.cur = [list(d.axes) for d in in_sharding.dims]
        self.rank = len(self.ins)
        self.capacity = [1] * self.rank
        self.steps: list[Step] = []
        self.in_sharding, self.out_sharding = in_sharding, out_sharding
        ordered_in, ordered_out = ordered(self.ins), ordered(self.outs)
        align_per_dim(self.ins, ordered_out, mesh)
        align_per_dim(self.outs, ordered_in, mesh)
        for ins, outs in zip(self.ins, self.outs):
            while ins and outs and ins[0] == outs[0]:
                del ins[0]
                del outs[0]
        self.in_set = {a for axes in self.ins for a in axes}
        self.out_map = self._out_map()

    def _out_map(self) -> dict:
        found: dict = {}
        for d, axes in enumerate(self.outs):
            for i, a in enumerate(axes):
                found.setdefault(a, (d, i))
        return found

    # ------------------------------------------------------------------ driver
    def run(self) -> list[Step]:
        steps = [self.STEPS[name] for name in self.step_order]
        tuned = self.step_order != self.REFERENCE_STEP_ORDER or self.permute != "when-shards-can-swap"
        for _ in range(self.TUNED_ROUNDS if tuned else self.REFERENCE_ROUNDS):
            if self.done():
                break
            for step in steps:
                step(self)
        if tuned and not (self.done() and self._is_sound()):
            self.steps = self._gather_then_slice()
        return self.steps

    def _gather_then_slice(self) -> list[Step]:
        """What any reshard can do: gather each dimension's axes after the prefix both shardings
        share, change the device order if the meshes differ in it, slice the target's after it."""
        ins = [list(d.axes) for d in self.in_sharding.dims]
        outs = [list(d.axes) for d in self.out_sharding.dims]
        common = [next((n for n, (p, q) in enumerate(zip(a, b)) if p != q), min(len(a), len(b)))
                  for a, b in zip(ins, outs)]
        in_ref = (self.in_sharding.mesh_name, self.in_sharding.inline_mesh)

        def sharding(mesh_ref, per_dim) -> TensorSharding:
            return TensorSharding(mesh_ref[0], tuple(DimSharding(tuple(a), True) for a in per_dim),
                                  unreduced=self.unreduced, inline_mesh=mesh_ref[1])

        prefix = [axes[:n] for axes, n in zip(ins, common)]
        steps = []
        gathered = [self._merged(axes[n:]) for axes, n in zip(ins, common)]
        if any(gathered):
            steps.append(Step("all_gather", sharding(in_ref, prefix), tuple(tuple(a) for a in gathered)))
        if in_ref != self.out_mesh_ref:
            steps.append(Step("collective_permute", sharding(self.out_mesh_ref, prefix)))
        sliced = [self._merged(axes[n:]) for axes, n in zip(outs, common)]
        if any(sliced):
            steps.append(Step("all_slice", sharding(self.out_mesh_ref, outs), tuple(tuple(a) for a in sliced)))
        return steps

    def _is_sound(self) -> bool:
        """Whether each step does what its kind says to the sharding before it
        (the state machine is written for Shardy's order: another order is
        checked), and the last one ends at the target."""
        dims = lambda sharding: [self._merged(d.axes) for d in sharding.dims]  # noqa: E731
        now = dims(self.in_sharding)
        for step in self.steps:
            after = dims(step.sharding)
            if step.kind == "all_slice":
                ok = after == [self._merged([*a, *b]) for a, b in zip(now, step.axes)]
            elif step.kind == "all_gather":
                ok = now == [self._merged([*a, *b]) for a, b in zip(after, step.axes)]
            elif step.kind == "all_to_all":
                moved, src, tgt = list(step.axes), step.src_dim, step.tgt_dim
                ok = (now[src] == self._merged(after[src] + moved) and after[tgt] == self._merged(now[tgt] + moved)
                      and all(now[d] == after[d] for d in range(self.rank) if d not in (src, tgt)))
            else:  # collective_permute: each device keeps a shard of each dimension's size
                ok = [axes_size(a, self.mesh) for a in now] == [axes_size(a, self.mesh) for a in after]
            if not ok:
                return False
            now = after
        return now == dims(self.out_sharding)

    def _merged(self, axes) -> list:
        merged: list = []
        for axis in axes:
            add_or_merge(merged, axis, self.mesh)
        return merged

    def done(self) -> bool:
        return (self.mesh_ref == self.out_mesh_ref and not any(self.ins) and not any(self.outs))

    def current(self) -> TensorSharding:
        name, inline = self.mesh_ref
        return TensorSharding(name, tuple(DimSharding(tuple(a), True) for a in self.cur),
                              unreduced=self.unreduced, inline_mesh=inline)

    def _emit(self, kind: str, axes=(), src: int = -1, tgt: int = -1) -> None:
        self.steps.append(Step(kind, self.current(), tuple(tuple(a) for a in axes) if kind != "all_to_all"
                               else tuple(axes), src, tgt))

    def _pop_back(self, cur: list, ins: list, start: int) -> None:
        for axis in reversed(ins[start:]):
            prefix = cur[-1].prefix_without_overlap(axis, self.mesh)
            if prefix is not None:
                cur[-1] = prefix
            else:
                cur.pop()

    # ------------------------------------------------------------------ all-gather
    def _gathering_axes(self, dim: int) -> list:
        ins = self.ins[dim]
        if not ins:
            return []
        # (Shardy steps its reverse iterator the wrong way here: when the last
        # axis is not a target axis the whole dimension is gathered, and only
        # that axis leaves the in-set; otherwise nothing is. No fuzzed case
        # tells this from gathering the suffix of non-target axes.)
        start = len(ins)
        if ins[-1] not in self.out_map:
            self.in_set.discard(ins[-1])
            start = 0
        self._pop_back(self.cur[dim], ins, start)
        gathering: list = []
        for axis in ins[start:]:
            add_or_merge(gathering, axis, self.mesh)
        del ins[start:]
        return gathering

    def try_all_gather(self) -> None:
        per_dim = [self._gathering_axes(d) for d in range(self.rank)]
        if any(per_dim):
            self._emit("all_gather", per_dim)

    # ------------------------------------------------------------------ capacity
    def _distribute(self, add_to_front: bool, available: Callable[[int], list],
                    consume: Callable[[AxisRef, int], None] = lambda a, d: None) -> None:
        split_added = []
        for dim in range(self.rank):
            ins = self.ins[dim]
            pos = 0 if add_to_front else len(ins)
            avail = available(dim)
            i = 0
            while i < len(avail) and self.capacity[dim] > 1:
                within, rest, self.capacity[dim] = within_capacity(avail[i], self.capacity[dim], self.mesh)
                if within is None:
                    i += 1
                    continue
                del avail[i]
                ins.insert(pos, within)
                pos += 1
                self.in_set.add(within)
                consume(within, dim)
                if rest is not None:
                    split_added.append(within)
                    avail.insert(0, rest)
                    i += 1
        split_added.sort(key=AxisRef.order_key)
        align_per_dim(self.outs, split_added, self.mesh)

    # ------------------------------------------------------------------ all-slice
    def _axes_to_slice_for_all_to_all(self, src: int):
        src_in = self.ins[src]
        if not src_in or self.outs[src]:
            return None
        entry = self.out_map.get(src_in[-1])
        if entry is None:
            return None
        tgt = entry[0]
        if self.ins[tgt]:
            return None
        tgt_out = self.outs[tgt]
        start = tgt_out.index(src_in[-1]) + 1
        if start == len(tgt_out) or tgt_out[start] in self.in_set:
            return None
        i, o, common = len(src_in) - 1, start - 1, 1
        while i >= 0 and o >= 0 and src_in[i] == tgt_out[o]:
            common *= src_in[i].size(self.mesh)
            i, o = i - 1, o - 1
        for k in range(i, -1, -1):
            found = self.out_map.get(src_in[k])
            if found is not None and found[0] == tgt:
                return None
        end, added = start, 1
        while end < len(tgt_out) and tgt_out[end] not in self.in_set:
            added *= tgt_out[end].size(self.mesh)
            end += 1
        if self.shape[src] % (axes_size(self.cur[src], self.mesh) * added) != 0:
            return None
        self.capacity[tgt] //= common * added
        return tgt, start, end

    def _slicing_axes(self):
        mesh = self.mesh
        slicing = [[] for _ in range(self.rank)]
        has = False
        for d in range(self.rank):
            in_size, out_size = axes_size(self.ins[d], mesh), axes_size(self.outs[d], mesh)
            self.capacity[d] = out_size // math.gcd(in_size, out_size)
        for src in range(self.rank):
            found = self._axes_to_slice_for_all_to_all(src)
            if found is None:
                continue
            has = True
            tgt, start, end = found
            for axis in self.outs[tgt][start:end]:
                self.ins[src].append(axis)
                self.in_set.add(axis)
                add_or_merge(slicing[src], axis, mesh)
                add_or_merge(self.cur[src], axis, mesh)
        available: list = []
        for d in range(self.rank):
            ins, outs = self.ins[d], self.outs[d]
            o = 0
            while o < len(outs):
                axis = outs[o]
                if axis in self.in_set:
                    o += 1
                    continue
                within, rest, self.capacity[d] = within_capacity(axis, self.capacity[d], mesh)
                if within is None:
                    available.append(axis)
                    o += 1
                    continue
                has = True
                add_or_merge(slicing[d], within, mesh)
                add_or_merge(self.cur[d], within, mesh)
                if not ins and o == 0:
                    del outs[o]
                else:
                    self.in_set.add(within)
                    ins.append(within)
                    outs[o] = within
                    o += 1
                if rest is not None:
                    outs.insert(o, rest)
                    o += 1
                    available.append(rest)

        def consume(axis, dim):
            nonlocal has
            has = True
            add_or_merge(slicing[dim], axis, mesh)
            add_or_merge(self.cur[dim], axis, mesh)

        self._distribute(False, lambda d: available, consume)
        self.out_map = self._out_map()
        return slicing if has else None

    def try_all_slice(self) -> None:
        slicing = self._slicing_axes()
        if slicing is not None:
            self._emit("all_slice", slicing)

    # ------------------------------------------------------------------ collective permute
    def _should_permute(self) -> bool:
        mesh = self.mesh
        avail_in = avail_out = None
        for dim in range(self.rank):
            ins, outs = self.ins[dim], self.outs[dim]
            if ins and outs and _divisible(ins[0].size(mesh), outs[0].size(mesh)):
                return True
            for axis in outs:
                if axis not in self.in_set:
                    avail_out = axis
            last_dim, last_index, seen = None, 0, set()
            for axis in ins:
                cur_dim = None
                entry = self.out_map.get(axis)
                if entry is not None:
                    cur_dim, index = entry
                    if (cur_dim == dim or cur_dim in seen) and (last_dim != cur_dim or index != last_index + 1):
                        return True
                    seen.add(cur_dim)
                    last_index = index
                elif last_dim is not None and not outs:
                    return True
                else:
                    avail_in = axis
                last_dim = cur_dim
        return (avail_out is not None and avail_in is not None
                and _divisible(avail_out.size(mesh), avail_in.size(mesh)))

    def _permute(self) -> None:
        mesh = self.mesh
        available_out: list = []
        avail_in = [[] for _ in range(self.rank)]
        self.in_set.clear()
        for d in range(self.rank):
            ins, outs, cur = self.ins[d], self.outs[d], self.cur[d]
            cap = used = axes_size(ins, mesh)
            self._pop_back(cur, ins, 0)
            while cap > 1 and outs:
                within, rest, cap = within_capacity(outs[0], cap, mesh)
                if within is None:
                    break
                del outs[0]
                add_or_merge(cur, within, mesh)
                if rest is not None:
                    outs.insert(0, rest)
            available_out.extend(outs)
            used //= cap
            ins[:] = [a for a in ins if a not in self.out_map]
            while used > 1 and ins:
                within, rest, used = within_capacity(ins[0], used, mesh)
                if within is None:
                    break
                del ins[0]
                avail_in[d].append(within)
                if rest is not None:
                    ins.insert(0, rest)
            avail_in[d][:0] = ins
            ins.clear()
            self.capacity[d] = cap
        self._distribute(False, lambda d: available_out)
        self._distribute(True, lambda d: avail_in[d])
        rest_in = [a for axes in avail_in for a in axes]
        self._distribute(True, lambda d: rest_in)
        self.out_map = self._out_map()
        for ins, cur in zip(self.ins, self.cur):
            for axis in ins:
                add_or_merge(cur, axis, mesh)

    def try_collective_permute(self) -> None:
        if self.PERMUTE_POLICIES[self.permute](self):
            self._permute()
        elif self.mesh_ref == self.out_mesh_ref:
            return
        self.mesh_ref = self.out_mesh_ref
        self._emit("collective_permute")

    # ------------------------------------------------------------------ all-to-all
    def _all_to_all(self, src: int, out_of_order: bool):
        src_in = self.ins[src]
        k, tgt = len(src_in) - 1, None
        while k >= 0:
            entry = self.out_map.get(src_in[k])
            if entry is None or entry[0] == src or (tgt is not None and entry[0] != tgt):
                break
            tgt = entry[0]
            k -= 1
        if tgt is None:
            return None
        start = k + 1
        tgt_out = self.outs[tgt]
        moved = src_in[start:]
        if not out_of_order and tgt_out[:len(moved)] != moved:
            return None
        axes: list = []
        self._pop_back(self.cur[src], src_in, start)
        tgt_in = self.ins[tgt]
        for axis in moved:
            add_or_merge(axes, axis, self.mesh)
            add_or_merge(self.cur[tgt], axis, self.mesh)
            self.in_set.discard(axis)
            if not tgt_in and tgt_out and tgt_out[0] == axis:
                del tgt_out[0]
            else:
                tgt_in.append(axis)
                self.in_set.add(axis)
        del src_in[start:]
        return axes, tgt

    def try_all_to_alls(self, out_of_order: bool) -> None:
        for src in range(self.rank):
            while (found := self._all_to_all(src, out_of_order)) is not None:
                axes, tgt = found
                self._emit("all_to_all", axes, src, tgt)


def reshard_steps(in_sharding: TensorSharding, out_sharding: TensorSharding, mesh: Mesh,
                  shape: Sequence[int]) -> list[Step]:
    """The collectives from IN_SHARDING to OUT_SHARDING (see the module docstring)."""
    return CollectiveChain(in_sharding, out_sharding, mesh, shape).run()


# --------------------------------------------------------------------------- collective attributes

_AXIS = re.compile(r'"([^"]+)"(?::\((\d+)\)(\d+))?')
_PARAM = re.compile(r"\{([^}]*)\}\s*:\s*(\d+)\s*->\s*(\d+)")


def parse_axes(text: str) -> tuple[AxisRef, ...]:
    """The axis refs of `{"x", "y":(1)2}` text, in order."""
    return tuple(AxisRef(m.group(1)) if m.group(2) is None else AxisRef(m.group(1), int(m.group(2)), int(m.group(3)))
                 for m in _AXIS.finditer(text))


def parse_axes_per_dim(text: str) -> tuple[tuple[AxisRef, ...], ...]:
    """`#sdy<list_of_axis_ref_lists[{"x"}, {}]>` -> one axis tuple per dimension."""
    body = text[text.index("[") + 1:text.rindex("]")]
    return tuple(parse_axes(group) for group in re.findall(r"\{([^}]*)\}", body))


def parse_all_to_all_params(text: str) -> tuple[tuple[tuple[AxisRef, ...], int, int], ...]:
    """`#sdy<all_to_all_param_list[{"x"}: 0->1, ...]>` -> ((axes, src, tgt), ...)."""
    return tuple((parse_axes(m.group(1)), int(m.group(2)), int(m.group(3))) for m in _PARAM.finditer(text))


def axes_per_dim_text(per_dim) -> str:
    return "#sdy<list_of_axis_ref_lists[" + ", ".join("{" + axes_text(a) + "}" for a in per_dim) + "]>"


def axis_list_text(axes) -> str:
    return "#sdy<axis_ref_list{" + axes_text(axes) + "}>"


def all_to_all_params_text(params) -> str:
    return "#sdy<all_to_all_param_list[" + ", ".join(
        "{" + axes_text(a) + f"}}: {s}->{t}" for a, s, t in params) + "]>"
