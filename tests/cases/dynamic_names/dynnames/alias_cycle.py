from dynnames.alias_base import Alias3  # noqa: F401


def helper():
    return Alias3
