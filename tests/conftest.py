import sys
from pathlib import Path

# tests/ helpers (reference, lit_runner, models) import as top-level modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The project's snapshot tests use sdy-dsl's own pytest plugin (the
# `sdy_dsl_snapshot` fixture). An install registers it through its pytest11
# entry point; from a plain checkout (PYTHONPATH) it is loaded here.
from importlib.metadata import entry_points  # noqa: E402

if not any(ep.value == "sdy_dsl.pytest_plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins = ["sdy_dsl.pytest_plugin"]
