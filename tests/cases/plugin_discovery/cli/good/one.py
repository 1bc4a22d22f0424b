# R21: a plugin reading Base from the registry.
from cli.registry import Base  # noqa: F401
