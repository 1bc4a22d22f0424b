# reexport: `from reexport_bad import Thing` while __init__ is still on its first line -> ImportError.
from reexport_bad import Thing


def describe(thing: Thing) -> str:
    return type(thing).__name__
