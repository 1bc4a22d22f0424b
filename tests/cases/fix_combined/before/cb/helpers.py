from __future__ import annotations

from .core import Core


def helper(value: Core) -> Core:
    """Uses Core in annotations (not evaluated) and at run time."""
    return Core()
