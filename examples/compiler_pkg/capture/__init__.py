"""Recording programs from traced operations."""
from ._capture import Capture
from ._config import CaptureConfig

__all__ = ["Capture", "CaptureConfig"]
