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

from sdy_dsl.diagnostics import emit_error
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation

LAYOUT_ATTR = "mhlo.layout_mode"
AUTO = "auto"
DEFAULT = "default"
FRAGMENT = "mpmd.fragment"
TRANSFER = "mpmd.transfer"


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


def _shown(layout) -> str:
    # As MLIR prints an attribute in a diagnostic (a null one included).
    return str(layout) if layout is not None else "<<NULL ATTRIBUTE>>"


def _string_attr(text: str) -> ir.Attribute:
    return ir.StringAttr.get(text)


# --------------------------------------------------------------------------- attribute dictionaries

def _dicts(op: ir.Operation, key: str, count: int) -> list[ir.DictAttr]:
    if key in op.attributes:
        return [ir.DictAttr(d) for d in ir.ArrayAttr(op.attributes[key])]
    return [ir.DictAttr.get({}) for _ in range(count)]


def _with_layout(d: ir.DictAttr, layout) -> ir.DictAttr:
    """`d` with the layout entry set, or dropped for a DEFAULT layout (implicit)."""
    entries = {n.name: n.attr for n in d}
    if _is_default(layout):
        entries.pop(LAYOUT_ATTR, None)
    else:
        entries[LAYOUT_ATTR] = layout
    return ir.DictAttr.get(entries)


def _func_count(func: ir.Operation, key: str) -> int:
    ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    return len(ftype.inputs) if key == "arg_attrs" else len(ftype.results)


def _func_layout(func: ir.Operation, key: str, index: int):
    if key not in func.attributes:
        return None
    d = ir.DictAttr(ir.ArrayAttr(func.attributes[key])[index])
    layout = d[LAYOUT_ATTR] if LAYOUT_ATTR in d else None
    # Like getArgAttrOfType<StringAttr>: a non-string layout attribute counts as absent.
    return layout if isinstance(layout, ir.StringAttr) else None


def _set_func_layout(ctx: RewriteContext, func: ir.Operation, key: str, index: int, layout) -> None:
    """As func.func's setArgAttr/removeArgAttr: an array of empty dictionaries is dropped."""
    dicts = _dicts(func, key, _func_count(func, key))
    dicts[index] = _with_layout(dicts[index], layout)
    if all(len(d) == 0 for d in dicts):
        ctx.remove_attr(func, key)
    else:
        ctx.set_attr(func, key, ir.ArrayAttr.get(dicts))


def _set_fragment_layout(ctx: RewriteContext, frag: ir.Operation, key: str, index: int, layout) -> None:
    """Fragments keep `arg_attrs` / `res_attrs` once written, even if every entry is empty."""
    count = len(frag.operands) if key == "arg_attrs" else len(frag.results)
    dicts = _dicts(frag, key, count)
    dicts[index] = _with_layout(dicts[index], layout)
    ctx.set_attr(frag, key, ir.ArrayAttr.get(dicts))


# --------------------------------------------------------------------------- choosing a layout

@dataclass
class _UsesSummary:
    layout: ir.Attribute | None  # the layout the program results ask for (AUTO if none asks)
    from_result: int  # the program result it came from, -1 if none
    fragment_uses: int  # uses that are neither a transfer nor the program's return
    transfer_use: bool


def _summarize_uses(value: ir.Value, func: ir.Operation, terminator: ir.Operation) -> _UsesSummary:
    """The common layout of the program results `value` is returned as; an error
    (and the pass stops) if two of them disagree."""
    summary = _UsesSummary(_string_attr(AUTO), -1, 0, False)
    for use in value.uses:
        owner = operation(use.owner)
        if owner.name == TRANSFER:
            summary.transfer_use = True
            continue
        if owner != terminator:
            summary.fragment_uses += 1
            continue
        result_layout = _func_layout(func, "res_attrs", use.operand_number)
        if not _compatible(summary.layout, result_layout):
            emit_error(owner, f"Result #{summary.from_result} is also returned as result #{use.operand_number}, "
                              f"but with incompatible layouts: {_shown(summary.layout)} vs. {_shown(result_layout)}")
        if not _is_auto(result_layout):
            summary.layout, summary.from_result = result_layout, use.operand_number
    return summary


def _write_to_users(ctx: RewriteContext, value: ir.Value, func: ir.Operation, terminator: ir.Operation,
                    layout) -> None:
    """Consuming fragments' arg_attrs and the program results get `layout`; transfers take none."""
    for use in list(value.uses):
        owner = operation(use.owner)
        if owner.name == FRAGMENT:
            _set_fragment_layout(ctx, owner, "arg_attrs", use.operand_number, layout)
        elif owner == terminator:
            _set_func_layout(ctx, func, "res_attrs", use.operand_number, layout)


def _terminator(func: ir.Operation) -> ir.Operation:
    block = func.regions[0].blocks[0]
    return operation(block.operations[len(block.operations) - 1])


@hook
def program_inputs(func: ir.Operation) -> list:
    """The entry block arguments of a function."""
    return list(operation(func).regions[0].blocks[0].arguments)


@hook
def propagate_input_layout(ctx: RewriteContext, func: ir.Operation, arg: ir.Value,
                           max_auto_fragment_uses: int) -> None:
    """Choose the layout of a program input from its own layout and the program results
    it is returned as; a transfer forces DEFAULT; AUTO with more than
    `max_auto_fragment_uses` consuming fragments becomes DEFAULT. Then write it on the
    input, the consuming fragments and those results. An unused input is left alone."""
    func = operation(func)
    arg = ir.BlockArgument(arg)
    if not any(True for _ in arg.uses):
        return
    terminator = _terminator(func)
    chosen = _func_layout(func, "arg_attrs", arg.arg_number)
    summary = _summarize_uses(arg, func, terminator)
    if not _compatible(chosen, summary.layout):
        emit_error(func, f"Arg #{arg.arg_number} is returned as result #{summary.from_result}, "
                         f"but with incompatible layouts: {_shown(chosen)} vs. {_shown(summary.layout)}")
    if not _is_auto(summary.layout):
        chosen = summary.layout
    if summary.transfer_use:
        # Transfers only support the DEFAULT layout. (The C++ pass also warns when
        # it overrides a custom layout here; see the rule file.)
        chosen = _string_attr(DEFAULT)
    elif _is_auto(chosen) and summary.fragment_uses > max_auto_fragment_uses:
        chosen = _string_attr(DEFAULT)
    _set_func_layout(ctx, func, "arg_attrs", arg.arg_number, chosen)
    _write_to_users(ctx, arg, func, terminator, chosen)


@hook
def propagate_fragment_result_layouts(ctx: RewriteContext, frag: ir.Operation, max_auto_fragment_uses: int) -> None:
    """For each result of a fragment: an unused one is AUTO; otherwise the layout of the
    program results it is returned as (AUTO if none); a transfer forces DEFAULT; AUTO
    with more than `max_auto_fragment_uses` consuming fragments becomes DEFAULT. Written
    on the fragment's res_attrs, the consuming fragments and the program results."""
    frag = operation(frag)
    func = operation(frag.parent)
    terminator = _terminator(func)
    res_dicts = _dicts(frag, "res_attrs", len(frag.results))
    for result in frag.results:
        index = ir.OpResult(result).result_number
        if not any(True for _ in result.uses):
            res_dicts[index] = _with_layout(res_dicts[index], _string_attr(AUTO))
            continue
        summary = _summarize_uses(result, func, terminator)
        chosen = summary.layout
        if summary.transfer_use:
            chosen = _string_attr(DEFAULT)
        elif _is_auto(chosen) and summary.fragment_uses > max_auto_fragment_uses:
            chosen = _string_attr(DEFAULT)
        res_dicts[index] = _with_layout(res_dicts[index], chosen)
        _write_to_users(ctx, result, func, terminator, chosen)
    ctx.set_attr(frag, "res_attrs", ir.ArrayAttr.get(res_dicts))
