# unknown: X and Y are bound by exec / globals().update before the cycle point.
exec("X = 1")
globals().update({"Y": 2})

from execglob import user  # noqa: E402,F401
