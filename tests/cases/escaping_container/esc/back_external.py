from .external import X
