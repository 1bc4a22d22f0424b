class Base:
    @classmethod
    def make(cls):
        from . import cm_reg
        return cm_reg.KIND


class Child(Base):
    @classmethod
    def make(cls):
        return super().make()
