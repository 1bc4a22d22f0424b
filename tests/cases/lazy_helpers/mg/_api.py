"""A stand-in for matplotlib's _api.caching_module_getattr, as it documents it."""
import functools


def caching_module_getattr(cls):
    props = {name: prop for name, prop in vars(cls).items() if isinstance(prop, property)}
    instance = cls()

    @functools.cache
    def __getattr__(name):
        if name in props:
            return props[name].__get__(instance)
        raise AttributeError(f"module {cls.__module__!r} has no attribute {name!r}")

    return __getattr__
