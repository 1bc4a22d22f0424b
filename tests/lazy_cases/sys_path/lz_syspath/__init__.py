from . import paths
