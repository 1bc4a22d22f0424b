from .display import X
