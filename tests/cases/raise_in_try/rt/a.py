# a `raise` in a function body inside `try`: its handler runs, and imports what closes the
# cycle (imported first, this fails)
def load():
    try:
        raise ImportError("no accelerated version")
    except ImportError:
        from rt.b import B
        return B


X = load()
A = 1
