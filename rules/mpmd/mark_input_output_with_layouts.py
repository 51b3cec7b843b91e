"""Hooks of mpmd-mark-input-output-with-layouts: choosing one `mhlo.layout_mode`
per program input / fragment result from its uses, and writing it everywhere.

A layout is the `mhlo.layout_mode` string attribute or None (absent). Absent and
"default" both mean the DEFAULT layout; "auto" lets the compiler choose; any
other string is a custom layout. Uses are visited in MLIR use-list order, as
the C++ pass does: it decides which result an error message names first.
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from sdy_dsl.diagnostics import emit_error, emit_warning
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.mpmd import ARG_ATTRS, RES_ATTRS
from sdy_dsl.runtime.values import operation

LAYOUT_ATTR = "mhlo.layout_mode"
AUTO = "auto"
DEFAULT = "default"
FRAGMENT = "mpmd.fragment"
TRANSFER = "mpmd.transfer"

is_entry_point_function = hook(mpmd.is_entry_point_function)


# --------------------------------------------------------------------------- the layout lattice

def _text(layout: ir.Attribute | None) -> str | None:
    return ir.StringAttr(layout).value if layout is not None else None


def _is_auto(layout) -> bool:
    return _text(layout) == AUTO


def _is_default(layout) -> bool:
    return _text(layout) in (None, DEFAULT)


def _compatible(a, b) -> bool:
    """Both DEFAULT, either AUTO, or the same custom layout."""
    if _is_default(a) and _is_default(b):
        return True
    if _is_auto(a) or _is_auto(b):
        return True
    return _text(a) == _text(b)


def _string_attr(text: str) -> ir.Attribute:
    return ir.StringAttr.get(text)


# --------------------------------------------------------------------------- attribute dictionaries

def _layout_update(layout) -> dict[str, ir.Attribute | None]:
    """The entry to write for a layout: DEFAULT is implicit, so it drops the entry."""
    return {LAYOUT_ATTR: None if _is_default(layout) else layout}


def _func_layout(func: ir.Operation, key: str, index: int):
    layout = mpmd.attr_entry(func, key, index, LAYOUT_ATTR)
    # Like getArgAttrOfType<StringAttr>: a non-string layout attribute counts as absent.
    return layout if isinstance(layout, ir.StringAttr) else None


def _set_func_layout(ctx: RewriteContext, func: ir.Operation, key: str, index: int, layout) -> None:
    """As func.func's setArgAttr/removeArgAttr: an array of empty dictionaries is dropped."""
    dicts = mpmd.with_entries(func, key, {index: _layout_update(layout)})
    if all(len(ir.DictAttr(d)) == 0 for d in dicts):
        ctx.remove_attr(func, key)
    else:
        ctx.set_attr(func, key, dicts)


def _set_fragment_layout(ctx: RewriteContext, frag: ir.Operation, key: str, index: int, layout) -> None:
    """Fragments keep `arg_attrs` / `res_attrs` once written, even if every entry is empty."""
    ctx.set_attr(frag, key, mpmd.with_entries(frag, key, {index: _layout_update(layout)}))


# --------------------------------------------------------------------------- choosing a layout

@dataclass
class _UsesSummary:
    layout: ir.Attribute | None  # the layout the program results ask for (AUTO if none asks)
    from_result: int  # the program result it came from, -1 if none
    fragment_uses: int  # uses that are neither a transfer nor the program's return
    transfer_uses: int
    cpu_transfer_use: bool  # some use is a transfer to a CPU mesh (default layout only)

    @property
    def consuming_uses(self) -> int:
        """Uses by fragments and transfers: those that would need cross-fragment layout propagation."""
        return self.fragment_uses + self.transfer_uses


def _summarize_uses(value: ir.Value, func: ir.Operation, terminator: ir.Operation,
                    cpu_mesh_suffix: str) -> _UsesSummary:
    """The common layout of the program results `value` is returned as; an error
    (and the pass stops) if two of them disagree."""
    summary = _UsesSummary(_string_attr(AUTO), -1, 0, 0, False)
    for use in value.uses:
        owner = operation(use.owner)
        if owner.name == TRANSFER:
            summary.transfer_uses += 1
            summary.cpu_transfer_use |= mpmd.mesh_name_ends_with(owner.results[0], cpu_mesh_suffix)
            continue
        if owner != terminator:
            summary.fragment_uses += 1
            continue
        result_layout = _func_layout(func, RES_ATTRS, use.operand_number)
        if not _compatible(summary.layout, result_layout):
            emit_error(owner, f"Result #{summary.from_result} is also returned as result #{use.operand_number}, "
                              f"but with incompatible layouts: {mpmd.diagnostic_text(summary.layout)} vs. {mpmd.diagnostic_text(result_layout)}")
        if not _is_auto(result_layout):
            summary.layout, summary.from_result = result_layout, use.operand_number
    return summary


def _write_to_users(ctx: RewriteContext, value: ir.Value, func: ir.Operation, terminator: ir.Operation,
                    layout, cpu_mesh_suffix: str) -> None:
    """Consuming fragments' arg_attrs and the program results get `layout`; a transfer
    passes it on to the users of its result (DEFAULT, if it goes to a CPU mesh)."""
    for use in list(value.uses):
        owner = operation(use.owner)
        if owner.name == FRAGMENT:
            _set_fragment_layout(ctx, owner, ARG_ATTRS, use.operand_number, layout)
        elif owner == terminator:
            _set_func_layout(ctx, func, RES_ATTRS, use.operand_number, layout)
        elif owner.name == TRANSFER:
            result = owner.results[0]
            on_cpu = mpmd.mesh_name_ends_with(result, cpu_mesh_suffix)
            _write_to_users(ctx, result, func, terminator, _string_attr(DEFAULT) if on_cpu else layout,
                            cpu_mesh_suffix)


def _warn_if_forced_to_default(value: ir.Value, what: str, layout) -> None:
    if not _compatible(layout, _string_attr(DEFAULT)):
        emit_warning(value, f"{what} is used in a transfer op, but with a non-default layout: "
                            f"{mpmd.diagnostic_text(layout)}. Forcing the layout to default.")


@hook
def propagate_program_input_layouts(ctx: RewriteContext, func: ir.Operation, max_auto_fragment_uses: int,
                                    cpu_mesh_suffix: str) -> None:
    """Each input of the function, in order (see `propagate_input_layout`)."""
    func = operation(func)
    for arg in list(func.regions[0].blocks[0].arguments):
        propagate_input_layout(ctx, func, arg, max_auto_fragment_uses, cpu_mesh_suffix)


@hook
def propagate_input_layout(ctx: RewriteContext, func: ir.Operation, arg: ir.Value,
                           max_auto_fragment_uses: int, cpu_mesh_suffix: str) -> None:
    """Choose the layout of a program input from its own layout and the program results
    it is returned as; a transfer to a CPU mesh (name ending in `cpu_mesh_suffix`) forces DEFAULT; AUTO with more than
    `max_auto_fragment_uses` consuming fragments and transfers becomes DEFAULT. Then write it on the
    input and its users (through transfers). An unused input is left alone."""
    func = operation(func)
    arg = ir.BlockArgument(arg)
    if not any(True for _ in arg.uses):
        return
    terminator = mpmd.body_terminator(func)
    chosen = _func_layout(func, ARG_ATTRS, arg.arg_number)
    summary = _summarize_uses(arg, func, terminator, cpu_mesh_suffix)
    if not _compatible(chosen, summary.layout):
        emit_error(func, f"Arg #{arg.arg_number} is returned as result #{summary.from_result}, "
                         f"but with incompatible layouts: {mpmd.diagnostic_text(chosen)} vs. {mpmd.diagnostic_text(summary.layout)}")
    if not _is_auto(summary.layout):
        chosen = summary.layout
    if summary.cpu_transfer_use:
        # Transfers to a CPU mesh only support the DEFAULT layout.
        _warn_if_forced_to_default(arg, f"Arg #{arg.arg_number}", chosen)
        chosen = _string_attr(DEFAULT)
    elif _is_auto(chosen) and summary.consuming_uses > max_auto_fragment_uses:
        chosen = _string_attr(DEFAULT)
    _set_func_layout(ctx, func, ARG_ATTRS, arg.arg_number, chosen)
    _write_to_users(ctx, arg, func, terminator, chosen, cpu_mesh_suffix)


@hook
def propagate_fragment_result_layouts(ctx: RewriteContext, frag: ir.Operation, max_auto_fragment_uses: int,
                                      cpu_mesh_suffix: str) -> None:
    """For each result of a fragment: an unused one is AUTO; otherwise the layout of the
    program results it is returned as (AUTO if none); a transfer to a CPU mesh forces DEFAULT; AUTO
    with more than `max_auto_fragment_uses` consuming fragments and transfers becomes DEFAULT. Written
    on the fragment's res_attrs and its users (through transfers)."""
    frag = operation(frag)
    func = operation(frag.parent)
    terminator = mpmd.body_terminator(func)
    res_layouts: dict[int, dict] = {}
    for result in frag.results:
        index = ir.OpResult(result).result_number
        if not any(True for _ in result.uses):
            res_layouts[index] = _layout_update(_string_attr(AUTO))
            continue
        summary = _summarize_uses(result, func, terminator, cpu_mesh_suffix)
        chosen = summary.layout
        if summary.cpu_transfer_use:
            _warn_if_forced_to_default(result, f"Result #{index}", chosen)
            chosen = _string_attr(DEFAULT)
        elif _is_auto(chosen) and summary.consuming_uses > max_auto_fragment_uses:
            chosen = _string_attr(DEFAULT)
        res_layouts[index] = _layout_update(chosen)
        _write_to_users(ctx, result, func, terminator, chosen, cpu_mesh_suffix)
    ctx.set_attr(frag, RES_ATTRS, mpmd.with_entries(frag, RES_ATTRS, res_layouts))
