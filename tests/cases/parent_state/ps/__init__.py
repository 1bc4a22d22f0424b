# A package whose own import leaves a failed submodule behind (removed from sys.modules, still
# referenced nowhere) and binds a name from another: each submodule's normal first import
# starts from this state (importsafe: the package run's final state, static/state.AfterImport).
try:
    from . import broken
except ImportError:
    pass
from . import base

VALUE = base.X
