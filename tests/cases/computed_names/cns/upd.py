# R23: globals().update(mapping) with a literal dict held by a name
_table = {"width": 1, "height": 2}
from . import upd_user  # noqa: E402,F401

globals().update(_table)
