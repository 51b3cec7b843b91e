"""`python -m sdy_dsl ...`: the `sdy-dsl` command."""
from .cli import entry

if __name__ == "__main__":
    entry()
