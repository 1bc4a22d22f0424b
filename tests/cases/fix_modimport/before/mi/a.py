"""a imports b before binding X."""
from . import b  # noqa: F401

X = 1
Y = 2
