# R24: lazy_loader.attach_stub: the submodules and attributes are the stub's imports
import lazy_loader as lazy

__getattr__, __dir__, __all__ = lazy.attach_stub(__name__, __file__)
