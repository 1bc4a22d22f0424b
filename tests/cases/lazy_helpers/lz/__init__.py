# R24: lazy_loader.attach: a submodule, attributes of submodules, one that shares its
# submodule's name; anything else raises AttributeError
import lazy_loader as lazy

__getattr__, __dir__, __all__ = lazy.attach(
    __name__, submodules=["sub"], submod_attrs={"funcs": ["compute"], "same": ["same"]})
