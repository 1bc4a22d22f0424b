# TYPE_CHECKING under another name is still TYPE_CHECKING
from typing import TYPE_CHECKING as _TC

if _TC:
    from dynnames.never_there import Thing  # noqa: F401
if not _TC:
    VALUE = 1
