"""... and right needs Left at import time too: no import can be deferred."""
from .left import Left


class Right:
    partner = Left
