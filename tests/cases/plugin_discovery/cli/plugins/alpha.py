# R21: a plugin reading Base from the data module.
from ..data import Base  # noqa: F401
