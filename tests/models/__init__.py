"""Real JAX models lowered to sdy MLIR for differential tests (see zoo.py)."""
