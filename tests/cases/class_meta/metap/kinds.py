from .meta import Meta


class Base(metaclass=Meta):
    pass


class LoadingKind(Base):  # the metaclass of Base makes it too: its __init__ imports
    pass


KINDS = 1
