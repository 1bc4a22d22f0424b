from torch import _ops


class Library:
    def __init__(self, ns, kind):
        self.ns = ns
        self.kind = kind

    def define(self, schema):
        name = schema.partition("(")[0]
        _ops._registry[f"{self.ns}::{name}"] = f"{self.ns}.{name}"


def define(qualname, schema):
    _ops._registry[qualname] = qualname.replace("::", ".")
