# bindings: `global NEVER_SET` in a function that is never called binds nothing: ImportError.
from bindings.binder import NEVER_SET
