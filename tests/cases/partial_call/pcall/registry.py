import functools
from functools import partial


def register(name, kind, table=None):
    from . import tables
    tables.TABLES.setdefault(kind, []).append(name)
    return name


register_reader = functools.partial(register, kind="reader")
register_writer = partial(register, kind="writer")
