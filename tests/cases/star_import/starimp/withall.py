# R9: __all__ lists `late`, which is bound only after the import that closes the cycle.
__all__ = ["early", "late"]

early = 1

from starimp import user_all  # noqa: E402,F401

late = 2
