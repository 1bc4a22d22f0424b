"""importsafe: make a package safe for any import order.

Public API:
- `check(paths, modes=...) -> Report`: static prediction, never runs user code;
- `run(paths, modes=...) -> Report`: every first import for real, in isolated interpreters;
- `verify(paths, ...) -> (Report, Report)`: both, with the disagreements as diagnostics;
- `explain(paths, entry, mode) -> Explanation`: one replay, step by step;
- `fix(paths, ..., write=False) -> FixOutcome`: the smallest verified import edits.
"""


def fix(*args, **kwargs):
    """See `importsafe.fix.apply.fix` (imported on first use: it needs libcst, which every
    pytest run would otherwise pay for through the pytest plugin's entry point)."""
    from .fix.apply import fix as _fix
    return _fix(*args, **kwargs)

from .model import Diagnostic, ErrorInfo, Frame, Report, Result

_API = frozenset({"InputError", "check", "explain", "run", "verify"})


def __getattr__(name: str):
    """The use cases load the analyser on first use (PEP 562): `importsafe check` on an
    unchanged tree answers from the run cache without it (runcache.py)."""
    if name in _API:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__version__ = "0.1.0"
__all__ = ["check", "run", "verify", "explain", "fix", "InputError", "Report", "Result",
           "ErrorInfo", "Frame", "Diagnostic", "__version__"]
