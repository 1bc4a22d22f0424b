# bindings: a for-target over an empty iterable is never bound: ImportError.
from bindings.binder import EMPTY_LOOP_VAR
