from . import _local

_local.recreate(__name__)
