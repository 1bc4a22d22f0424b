"""Settings for recording programs."""
from dataclasses import dataclass


@dataclass(frozen=True)
class CaptureConfig:
    """Limits and switches applied while recording."""

    max_nodes: int = 1000
    verify: bool = True
