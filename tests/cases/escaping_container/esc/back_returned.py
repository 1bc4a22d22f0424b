from .returned import X
