from lel.star import S

__all__ = ["S2"]
S2 = S
