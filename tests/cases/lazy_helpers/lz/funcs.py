from . import a  # noqa: F401  (a reads compute through the loader before it is defined)


def compute():
    pass
