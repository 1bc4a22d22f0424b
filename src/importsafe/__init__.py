"""importsafe: make a package safe for any import order.

Public API: `check(paths, modes=...) -> Report` (static prediction, never runs user code).
"""
from .api import InputError, check
from .model import Diagnostic, ErrorInfo, Frame, Report, Result

__version__ = "0.1.0"
__all__ = ["check", "InputError", "Report", "Result", "ErrorInfo", "Frame", "Diagnostic",
           "__version__"]
