# the module replaces itself with an object that answers every name
import sys
import types


class _Forward(types.ModuleType):
    def __getattr__(self, name):
        return name


sys.modules[__name__] = _Forward(__name__)
