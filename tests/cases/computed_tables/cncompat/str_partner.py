# R28: imported by known_key through the table: reads READY too early.
from cncompat.known_key import READY  # noqa: F401
