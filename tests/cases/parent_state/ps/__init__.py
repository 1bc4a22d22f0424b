# A package whose own import leaves failed submodules behind (removed from sys.modules; one of
# them still referenced from another module) and binds a name from another: each
# submodule's normal first import starts from this state (importsafe: the package run's final
# state, static/state.AfterImport).
try:
    from . import broken
except ImportError:
    pass
try:
    from . import half
except ImportError:
    pass
from . import base

VALUE = base.X
