# R10: __getattr__ bound only after the cycle point cannot help.
from modgetattr import user_late  # noqa: F401

X = "real X"


def __getattr__(name):
    raise AttributeError(name)
