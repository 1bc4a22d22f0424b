from .plugins import PLUGINS
