# imported first, it fails by the cycle: _b reads A before this module has bound it
from pl import B  # noqa: F401


class A:
    pass
