# R21: a plugin in a subpackage: walk_packages imports sub, then lists it.
from ...data import Base  # noqa: F401
