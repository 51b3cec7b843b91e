"""One point of a search: how its settings reach a run (options, an `extends:`
file per pass for params, rules directories, priorities written into @main's
argument shardings), shared by the search (sdy_dsl/search.py) and the files
it writes (sdy_dsl/search_report.py)."""
from __future__ import annotations

from pathlib import Path

from .errors import SdyDslError


def number(value: float | None) -> str:
    """An objective as a person reads it: whole numbers whole."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"


def apply_priorities(text: str, priorities: dict) -> str:
    """TEXT with user priorities on @main's arguments (index -> priority) on
    every dimension of their shardings that has axes or is open."""
    from jaxlib.mlir import ir
    from .mlir_context import make_context
    from .runtime.sharding import codec
    from dataclasses import replace
    with make_context():
        module = ir.Module.parse(text)
        main = next((op.operation for op in module.body.operations if op.operation.name == "func.func"
                     and ir.StringAttr(op.operation.attributes["sym_name"]).value == "main"), None)
        if main is None:
            raise SdyDslError("priorities: the module has no @main")
        count = len(main.regions[0].blocks[0].arguments)
        attrs = list(ir.ArrayAttr(main.attributes["arg_attrs"])) if "arg_attrs" in main.attributes else []
        attrs += [ir.DictAttr.get({})] * (count - len(attrs))
        for key, priority in priorities.items():
            if not key.isdigit() or int(key) >= count:
                raise SdyDslError(f"priorities: @main has no argument {key} (it has {count})")
            entry = {n.name: n.attr for n in ir.DictAttr(attrs[int(key)])}
            if "sdy.sharding" not in entry:
                raise SdyDslError(f"priorities: argument {key} of @main has no sdy.sharding to give a priority")
            sharding = codec.tensor_sharding(entry["sdy.sharding"])
            dims = tuple(replace(d, priority=priority) if d.axes or d.is_open else d for d in sharding.dims)
            entry["sdy.sharding"] = codec.tensor_sharding_attr(replace(sharding, dims=dims))
            attrs[int(key)] = ir.DictAttr.get(entry)
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
        return module.operation.get_asm(enable_debug_info=True)


def write_params_dir(directory: Path, params: dict) -> list[Path]:
    """One `extends:` file per pass setting PARAMS ({pass: {param: value}}) in DIRECTORY."""
    import yaml
    directory.mkdir(parents=True, exist_ok=True)
    files = []
    for pass_name, values in sorted(params.items()):
        path = directory / f"{pass_name.replace('-', '_')}.yaml"
        path.write_text("# written by sdy-dsl search\n" + yaml.safe_dump(
            {"extends": pass_name, "params": values}, sort_keys=False, default_flow_style=None, width=100))
        files.append(path)
    return files


def split_settings(settings: dict, kinds: dict) -> tuple[dict, dict, list, dict | None]:
    """(options, params, rules dirs, priorities) of a point's SETTINGS."""
    options: dict = {}
    params: dict = {}
    rules: list = []
    priorities = None
    for name, value in settings.items():
        kind, pass_name, key = kinds[name]
        if kind == "option":
            options.setdefault(pass_name, {})[key] = value
        elif kind == "param":
            params.setdefault(pass_name, {})[key] = value
        elif kind == "rules":
            rules.append(value)
        else:
            priorities = value
    return options, params, rules, priorities
