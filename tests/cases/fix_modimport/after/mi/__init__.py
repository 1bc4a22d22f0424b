"""The package relies on b loading a: z() reads pkg.a without importing it."""
from . import b, c

Z = c.z()
