from lgen.b import Base


class A(Base):
    pass
