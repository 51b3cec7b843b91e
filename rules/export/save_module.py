"""Hook of sdy-save-module: write the module to the dump directory."""
from __future__ import annotations

import sys
from pathlib import Path

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext


def dump_file_name(file_name: str, dump_index: int) -> str:
    """`NN.NAME.mlir` (NN two digits), or `NAME.mlir` without an index."""
    stem = f"{dump_index:02d}.{file_name}" if dump_index >= 0 else file_name
    return f"{stem}.mlir"


@hook
def save_module(ctx: RewriteContext) -> None:
    directory = ctx.options["dump-directory"]
    if not directory:
        return
    path = Path(directory) / dump_file_name(ctx.options["file-name"], ctx.options["dump-index"])
    try:
        path.write_text(str(ctx.module))
    except OSError as e:
        # Like the reference: reported, and the pipeline goes on.
        print(f"error when writing file {path}: {e.strerror}", file=sys.stderr)
