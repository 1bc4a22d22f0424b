SEEN = []

from .mro_use import OBJ  # noqa: E402
