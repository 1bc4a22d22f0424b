class A:
    def __init__(self):
        from . import sreg
        sreg.ITEMS.append(self)


class B(A):
    def __init__(self):
        super().__init__()
