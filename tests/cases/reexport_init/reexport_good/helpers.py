# reexport: `from . import Thing` needs the package __init__ to have re-exported it already
# (bare mode: __init__ never runs, Thing is not a submodule -> ImportError).
from . import Thing


def describe(thing: Thing) -> str:
    return type(thing).__name__
