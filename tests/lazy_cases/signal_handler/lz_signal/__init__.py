from . import handlers
