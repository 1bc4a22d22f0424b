# R5: `from subfallback import a` while a is running: a is not yet an attribute of subfallback,
# but IMPORT_FROM falls back to sys.modules['subfallback.a'], so this succeeds.
from subfallback import a

VALUE = "b"


def partner():
    return a.VALUE
