from . import base

base.__dict__["Y"] = 1
vars(base)["Z"] = 2

from .base import Y, Z  # noqa: E402,F401
