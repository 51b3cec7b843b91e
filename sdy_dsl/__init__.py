"""sdy-dsl: Shardy's sharding passes as declarative rule files."""

__version__ = "0.1.0"
