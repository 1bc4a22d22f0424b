"""Imports fine, and imports a sibling that is fine too."""
from . import noisy  # noqa: F401
