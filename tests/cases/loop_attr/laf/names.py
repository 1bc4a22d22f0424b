__all__ = ["a", "b"]
ALL = __all__
