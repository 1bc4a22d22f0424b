from .present import READY
never = 1
