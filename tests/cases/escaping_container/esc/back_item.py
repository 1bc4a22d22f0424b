from .item import X
