# unknown: Z is bound by exec only after the cycle point.
from execglob import user2  # noqa: F401

exec("Z = 3")
