from .a import Logger  # a's `Logger()` imports b back: b's `publisher` is not bound yet

publisher = object()
