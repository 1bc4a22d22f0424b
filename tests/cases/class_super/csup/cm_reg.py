from .cm_use import X

KIND = 1
