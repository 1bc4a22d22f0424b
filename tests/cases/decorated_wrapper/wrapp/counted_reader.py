from .counted import COUNTED
