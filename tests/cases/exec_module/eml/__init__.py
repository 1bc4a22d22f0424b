import sys
import types


class _Lazy(types.ModuleType):
    def __getattr__(self, name):
        if name == "thing":
            return 1
        raise AttributeError(name)


# as transformers' _LazyModule: the package puts another module object in its place
_lazy = _Lazy(__name__)
_lazy.__path__ = __path__
sys.modules[__name__] = _lazy
