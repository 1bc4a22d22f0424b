from .builtin_plugins import Json

PLUGINS = []
