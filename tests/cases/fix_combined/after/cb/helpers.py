from __future__ import annotations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Core


def helper(value: Core) -> Core:
    """Uses Core in annotations (not evaluated) and at run time."""
    from .core import Core
    return Core()
