class Base:
    def __init__(self):
        from . import mro_reg
        mro_reg.SEEN.append(1)


class Mixin:
    def __init__(self):
        super().__init__()  # in Both's MRO, Base's comes next


class Both(Mixin, Base):
    pass
