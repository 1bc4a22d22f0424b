import sys
import types


class LazyModule(types.ModuleType):
    def __getattr__(self, name):
        if name == "thing":
            return 42
        raise AttributeError(name)


def create(fqdn, path):
    module = sys.modules[fqdn] = LazyModule(fqdn)
    module.__path__ = path
    return module


def recreate(name):
    return create(name, sys.modules[name].__path__)
