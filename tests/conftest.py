import sys
from pathlib import Path

# tests/ helpers (reference, lit_runner, models) import as top-level modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
