def backend(kind):
    from retpkg.table import KINDS
    if kind not in KINDS:
        raise ValueError(kind)
    if kind == "fast":
        return "native"
    name = None
    return name


def probe():
    try:
        from retpkg import not_there  # noqa: F401
    except ImportError:
        return False
    return True


def first(values):
    from retpkg.table import KINDS
    for value in values:
        if value in KINDS:
            return value
    return None


def maybe(flag):
    from retpkg.table import KINDS  # noqa: F401
    if flag:
        return
    return "set"
