"""a imports b before defining A; b needs A only inside a function."""
from . import b

A = 1
