from jax._src import lazy_loader as _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, ["alpha", "beta", "cyc"])
del _lazy
