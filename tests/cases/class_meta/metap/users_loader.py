from .loaded import LOADED
