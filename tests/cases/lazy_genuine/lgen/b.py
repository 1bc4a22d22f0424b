from lgen.a import A


class Base:
    pass


class Special(A):
    pass
