# bindings: `ONLY_ANNOTATED: int` without a value binds nothing: ImportError.
from bindings.binder import ONLY_ANNOTATED
