from .quiet import QUIET
