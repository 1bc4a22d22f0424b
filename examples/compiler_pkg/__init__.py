"""A toy compiler toolkit: programs, backends, capture and verification.

The order of the imports below matters. ``program`` <-> ``backend_api`` and
``capture`` <-> ``verifier`` are circular imports that only work when entered from
the first module of each pair, so this file imports ``program`` before
``backend_api``, and ``capture`` (which loads ``verifier``). Importing ``backend_api``
or ``verifier`` first (with this file not run, as a lazy or "bare parent" import
does) fails. ``jit`` <-> ``optimizer`` is a third such cycle, and the one PEP 810 lazy
imports do not remove: each side uses a name of the other while it runs.
"""
from .program import FakeProgram, Program
from .backend_api import Backend, Spec, get_backend, register_backend
from .jit import JitBackend  # loads optimizer from inside jit, the order that works
from .capture import Capture, CaptureConfig
# ``verifier`` is not imported here: ``capture`` loads it (the verification API lives at
# ``compiler_pkg.verifier``).
from . import ir, passes

__all__ = [
    "Backend",
    "Capture",
    "CaptureConfig",
    "FakeProgram",
    "JitBackend",
    "Program",
    "Spec",
    "get_backend",
    "ir",
    "passes",
    "register_backend",
]
