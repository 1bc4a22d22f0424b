from .loader import Shared

LOADER = Shared()
